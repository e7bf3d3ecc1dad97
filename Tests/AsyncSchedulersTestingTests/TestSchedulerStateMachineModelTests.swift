import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers

/// Drives `TestSchedulerStateMachine` with seeded random events (jobs, one-shot and repeating timers,
/// removals, pops of ready work and of due timers, moves of the clock, new driving calls) against a
/// reference model: ready work in FIFO order, timers in (deadline, scheduling order), a clock that
/// never moves backwards, repeating timers re-armed on their grid after the clock, and the per-instant
/// job bound. Invariants are checked after every step.
@Suite("TestSchedulerStateMachine model")
struct TestSchedulerStateMachineModelTests {
  final class Marker: Sendable {
    let id: Int
    init(_ id: Int) { self.id = id }
  }

  struct TimerModel {
    let id: Int
    var deadline: SchedulerInstant
    let sequence: Int
    let interval: Duration?
    let timer: ScheduledTimer
  }

  @Test("random events keep FIFO, deadline order, a monotonic clock and the runaway bound")
  func randomEvents() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(500) {
        var random = SplitMix(seed: seed)
        let bound = Int(random.next() % 8) + 2
        var machine = TestSchedulerStateMachine(now: .zero, maximumJobsPerInstant: bound, creator: .thread(0))
        var ready: [Int] = []
        var markers: [ObjectIdentifier: Int] = [:]
        var timers: [TimerModel] = []
        var now = SchedulerInstant.zero
        var runAtInstant = 0
        var runaway = false
        var nextID = 0
        var sequence = 0
        func fail(_ message: String, _ step: Int) { failures.record("seed \(seed) step \(step): \(message)") }
        machine.beginDriving()
        for step in 0..<300 {
          switch random.next() % 8 {
          case 0, 1:
            let marker = Marker(nextID)
            let action = ScheduledAction {}
            markers[ObjectIdentifier(action)] = marker.id
            _ = machine.enqueue(.action(action), lane: nil)
            ready.append(nextID)
            nextID += 1
          case 2:
            let offset = Duration.milliseconds(Int64(random.next() % 50) - 10)
            let repeating = random.next() % 3 == 0
            let interval = Duration.milliseconds(Int64(random.next() % 20) + 1)
            let deadline = now.advanced(by: offset)
            let timer: ScheduledTimer =
              repeating
              ? RepeatingTimer(owner: nil, start: deadline, interval: interval) {}
              : ScheduledTimer(owner: nil) {}
            _ = machine.addTimer(timer, at: deadline)
            timers.append(
              TimerModel(
                id: nextID, deadline: deadline, sequence: sequence, interval: repeating ? interval : nil, timer: timer))
            nextID += 1
            sequence += 1
          case 3 where !timers.isEmpty:
            let index = Int(random.next() % UInt64(timers.count))
            machine.removeTimer(timers.remove(at: index).timer)
          case 4:
            let work = machine.popReady()
            if runaway || ready.isEmpty {
              if work != nil { fail("popReady returned work while \(runaway ? "runaway" : "empty")", step) }
            } else if runAtInstant >= bound {
              if work != nil { fail("popReady ran past the bound of \(bound) jobs at \(now)", step) }
              runaway = true
            } else {
              guard case .action(let action)? = work else {
                fail("popReady returned nothing with \(ready.count) ready", step)
                continue
              }
              if markers[ObjectIdentifier(action)] != ready.first { fail("ready work out of FIFO order", step) }
              ready.removeFirst()
              runAtInstant += 1
            }
          case 5:
            let limit = now.advanced(by: .milliseconds(Int64(random.next() % 40)))
            let popped = machine.popTimer(dueBy: limit)
            timers.sort { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
            guard !runaway, let first = timers.first, first.deadline <= limit else {
              if popped != nil { fail("popTimer returned a timer that was not due", step) }
              continue
            }
            if first.deadline <= now && runAtInstant >= bound {
              if popped != nil { fail("popTimer ran past the bound", step) }
              runaway = true
              continue
            }
            if popped !== first.timer { fail("timers out of (deadline, sequence) order", step) }
            if first.deadline > now {
              now = first.deadline
              runAtInstant = 0
            }
            runAtInstant += 1
            if let interval = first.interval {
              var grid = RepeatGrid(start: first.deadline, interval: interval)
              timers[0].deadline = grid.nextDeadline(after: now)!
            } else {
              timers.removeFirst()
            }
          case 6:
            let target = now.advanced(by: .milliseconds(Int64(random.next() % 30) - 5))
            machine.move(to: target)
            if target > now {
              now = target
              runAtInstant = 0
            }
          default:
            machine.beginDriving()
            runAtInstant = 0
            runaway = false
          }
          if machine.now != now { fail("clock at \(machine.now), model at \(now)", step) }
          if machine.isRunaway != runaway { fail("runaway \(machine.isRunaway), model \(runaway)", step) }
          if machine.pendingCount != ready.count + timers.count {
            fail("\(machine.pendingCount) pending, model \(ready.count + timers.count)", step)
          }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  @Test(
    "random arrivals, drives and capturing scopes follow the escape rule, and the pump runs ready work in FIFO order")
  func escapeRuleAndPump() async {
    let failures = await runModel { failures in
      let contexts: [ArrivalContext] = [.thread(0), .thread(1), .task(16), .task(32), .task(48)]
      for seed in ModelTesting.seeds(1_000) {
        var random = SplitMix(seed: seed)
        var machine = TestSchedulerStateMachine(now: .zero, maximumJobsPerInstant: 1_000, creator: contexts[0])
        // The reference: the creator, the last driver, the active scope, the escapes, the ready FIFO.
        var driver: ArrivalContext?
        var scope: UInt64 = 0
        var escapes = 0
        var ready: [Int] = []
        var nextID = 0
        var markers: [ObjectIdentifier: Int] = [:]
        func fail(_ message: String, _ step: Int) { failures.record("seed \(seed) step \(step): \(message)") }
        for step in 0..<200 {
          switch random.next() % 6 {
          case 0, 1:
            // Work arrives, from the scheduler, the hook, or some context.
            let arrival: TestSchedulerStateMachine.Arrival =
              switch random.next() % 4 {
              case 0: .onScheduler
              case 1: .captured
              default: .from(contexts[Int(random.next() % UInt64(contexts.count))])
              }
            let expected: Bool =
              switch arrival {
              case .onScheduler, .captured: false
              case .from(let context): scope != 0 || (context != contexts[0] && context != driver)
              }
            let action = ScheduledAction {}
            markers[ObjectIdentifier(action)] = nextID
            ready.append(nextID)
            nextID += 1
            // Escaping work is queued only with its description, recorded in the same step.
            let first = machine.enqueue(.action(action), lane: nil, arrival)
            if (first == .describeEscape) != expected {
              fail("\(arrival) asked for a description: \(first), expected \(expected)", step)
            }
            if first == .describeEscape {
              let second = machine.enqueue(.action(action), lane: nil, arrival, escape: ("work", "\(arrival)"))
              guard case .queued(_, escaped: true) = second else {
                fail("described escape of \(arrival) not queued as an escape: \(second)", step)
                continue
              }
              escapes += 1
            }
          case 2:
            let context = contexts[Int(random.next() % UInt64(contexts.count))]
            machine.beginDriving(from: context)
            driver = context
          case 3:
            scope = random.next() % 3 == 0 ? 0 : random.next() % 3 + 1
            if scope == 0 { _ = machine.endCapturing() } else { _ = machine.beginCapturing(ModelScope(id: scope)) }
          case 4:
            // A pump of scope 1 takes its next step.
            switch machine.nextPumpStep(scope: 1) {
            case .stop:
              if scope == 1 { fail("pump of the active scope stopped", step) }
            case .wait:
              if scope != 1 || !ready.isEmpty { fail("pump waited with scope \(scope), \(ready.count) ready", step) }
              machine.stopWaiting()
            case .settled:
              fail("pump resumed settle() callers, and none waited", step)
            case .run(let work):
              guard scope == 1, case .action(let action) = work, let id = markers[ObjectIdentifier(action)] else {
                fail("pump ran work it should not have", step)
                continue
              }
              if ready.first != id { fail("pump ran \(id), expected \(ready.first.map(String.init) ?? "none")", step) }
              ready.removeFirst()
            }
          default:
            if let drained = machine.drainEscapes() {
              if drained.count != escapes { fail("drained \(drained.count) escapes, expected \(escapes)", step) }
              if drained.entries.count != min(escapes, EscapeLog.detailLimit) {
                fail("kept \(drained.entries.count) details", step)
              }
            } else if escapes != 0 {
              fail("no escapes drained, expected \(escapes)", step)
            }
            escapes = 0
          }
          // Invariants after every step.
          if machine.queues.readyCount != ready.count {
            fail("ready count \(machine.queues.readyCount) != \(ready.count)", step)
          }
          if machine.escapes.count != escapes { fail("escape count \(machine.escapes.count) != \(escapes)", step) }
          if machine.isCapturing != (scope != 0) {
            fail("isCapturing \(machine.isCapturing) with scope \(scope)", step)
          }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
  }
}

/// A capturing scope as the machine sees it: an identifier (it owns no job).
private final class ModelScope: CapturingScope {
  let id: UInt64
  init(id: UInt64) { self.id = id }
  func ownsJob(_ job: UnownedJob) -> Bool { false }
}
