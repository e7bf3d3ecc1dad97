import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

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
            _ = machine.enqueue(.action(action))
            ready.append(nextID)
            nextID += 1
          case 2:
            let offset = Duration.milliseconds(Int64(random.next() % 50) - 10)
            let repeating = random.next() % 3 == 0
            let interval = Duration.milliseconds(Int64(random.next() % 20) + 1)
            let deadline = now.advanced(by: offset)
            let timer: ScheduledTimer =
              repeating
              ? RepeatingTimer(owner: nil, grid: RepeatGrid(start: deadline, interval: interval)) {}
              : ScheduledTimer(owner: nil) {}
            _ = machine.addTimer(timer, at: deadline)
            timers.append(TimerModel(id: nextID, deadline: deadline, sequence: sequence, interval: repeating ? interval : nil, timer: timer))
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
}
