import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

/// Drives `CaptureScopeStateMachine` (what a scope's pump does when nothing is ready) with seeded random
/// pump situations — jobs of the body and of other tasks, idle moments, timers that fire, work that
/// arrives, nothing to fire, waits that time out with or without timers — against a reference model
/// of the rules, checked after every step:
/// - auto-advance fires timers until it has jumped `maximumAutoAdvances` times since the body last
///   ran, then gives up once, for good;
/// - after a stall (a timed-out wait with timers pending) the pump fires at most
///   `maximumStalledTimers` timers one by one, then only waits;
/// - a wait is bounded by the stall timeout until a stall is found, unbounded after;
/// - the pump asks which task a job belongs to only while auto-advance counts jumps.
@Suite("CaptureScopeStateMachine model")
struct CaptureScopeStateMachineModelTests {
  /// The rules, written plainly.
  struct Model {
    let maximumAutoAdvances: Int
    let maximumStalledTimers: Int
    let bodyTask: UInt64
    var autoAdvancing: Bool
    var stalled = false
    var stalledFired = 0
    var jumps = 0
    var gaveUp = 0
    var overdue = false
    var returned = false

    mutating func idle(workInFlight: Bool) -> CaptureScopeStateMachine.IdleAction {
      if returned { return .wait(stallBound: false) }
      if !workInFlight { overdue = false } else if !overdue { return .waitForOutsideWork }
      if autoAdvancing && jumps >= maximumAutoAdvances {
        autoAdvancing = false
        gaveUp += 1
        return .giveUpAutoAdvance
      }
      if autoAdvancing || (stalled && stalledFired < maximumStalledTimers) { return .fireNextTimer }
      return .wait(stallBound: !stalled)
    }
  }

  @Test(
    "random pump situations follow the auto-advance, give-up, stall, wait, work-in-flight and body-returned rules")
  func randomSituations() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(500) {
        var random = SplitMix(seed: seed)
        let autoAdvance = random.next() % 4 != 0
        let bodyTask = random.next() % 5 == 0 ? 0 : UInt64(random.next() % 4 + 1)
        let maximumAutoAdvances = Int(random.next() % 6) + 1
        let maximumStalledTimers = Int(random.next() % 6) + 1
        var machine = CaptureScopeStateMachine(
          autoAdvance: autoAdvance, bodyTask: bodyTask, maximumAutoAdvances: maximumAutoAdvances,
          maximumStalledTimers: maximumStalledTimers)
        var model = Model(
          maximumAutoAdvances: maximumAutoAdvances, maximumStalledTimers: maximumStalledTimers, bodyTask: bodyTask,
          autoAdvancing: autoAdvance)
        func fail(_ message: String, _ step: Int) {
          failures.record("seed \(seed) step \(step) (printed to replay: ASYNC_SCHEDULERS_SEED=\(seed)): \(message)")
        }
        for step in 0..<300 {
          if !model.returned && random.next() % 97 == 0 {
            // The body returns: the clock moves no more.
            machine.bodyReturned()
            model.returned = true
            model.autoAdvancing = false
          } else if random.next() % 3 == 0 {
            // A job runs: the body's (task 1..4 may be the body) or no task's.
            let task = random.next() % 5
            if machine.watchesBodyJobs != (model.autoAdvancing && bodyTask != 0) {
              fail("watchesBodyJobs \(machine.watchesBodyJobs), auto-advancing \(model.autoAdvancing)", step)
            }
            machine.willRunJob(ofTask: task)
            if model.autoAdvancing && bodyTask != 0 && task == bodyTask { model.jumps = 0 }
          } else {
            // Nothing is ready.
            let inFlight = random.next() % 4 == 0
            var action = machine.nothingReady(workInFlight: inFlight)
            let expected = model.idle(workInFlight: inFlight)
            if action != expected { fail("idle: \(action), expected \(expected)", step) }
            if action == .fireNextTimer {
              let found: CaptureScopeStateMachine.TimerStep =
                switch random.next() % 3 {
                case 0: .fired
                case 1: .workArrived
                default: .nothing
                }
              let next = machine.timerStep(found)
              switch found {
              case .fired:
                if model.autoAdvancing { model.jumps += 1 } else { model.stalledFired += 1 }
                if next != nil { fail("after a fired timer the pump looks for work again, got \(next!)", step) }
              case .workArrived:
                if next != nil { fail("work arrived: the pump runs it, got \(next!)", step) }
              case .nothing:
                if next != .wait(stallBound: !model.stalled) {
                  fail("nothing to fire: \(String(describing: next))", step)
                }
              }
              if let next { action = next }
            }
            if action == .waitForOutsideWork && random.next() % 2 == 0 {
              machine.outsideWorkTimedOut()
              model.overdue = true
            }
            if case .wait(let bounded) = action, bounded, random.next() % 2 == 0 {
              let timersPending = random.next() % 2 == 0
              machine.waitTimedOut(timersPending: timersPending)
              if timersPending { model.stalled = true }
            }
          }
          // Invariants after every step.
          if machine.isAutoAdvancing != model.autoAdvancing {
            fail("auto-advancing \(machine.isAutoAdvancing), expected \(model.autoAdvancing)", step)
          }
          if machine.hasStalled != model.stalled {
            fail("stalled \(machine.hasStalled), expected \(model.stalled)", step)
          }
          if machine.jumpsSinceBodyRan > maximumAutoAdvances {
            fail("jumped \(machine.jumpsSinceBodyRan) times, more than \(maximumAutoAdvances)", step)
          }
          if machine.stalledTimersFired > maximumStalledTimers {
            fail("fired \(machine.stalledTimersFired) stalled timers, more than \(maximumStalledTimers)", step)
          }
          if model.returned && machine.isAutoAdvancing { fail("auto-advancing after the body returned", step) }
          if model.gaveUp > 1 { fail("auto-advance gave up \(model.gaveUp) times", step) }
          if model.gaveUp == 1 && (autoAdvance == false) { fail("gave up without auto-advance", step) }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
  }

  @Test("Auto-advance gives up after its bound of jumps with the body idle, and a job of the body resets the count")
  func givesUpAfterTheBound() {
    var machine = CaptureScopeStateMachine(
      autoAdvance: true, bodyTask: 7, maximumAutoAdvances: 2, maximumStalledTimers: 5)
    #expect(machine.nothingReady() == .fireNextTimer)
    #expect(machine.timerStep(.fired) == nil)
    machine.willRunJob(ofTask: 7)
    for _ in 0..<2 {
      #expect(machine.nothingReady() == .fireNextTimer)
      _ = machine.timerStep(.fired)
    }
    #expect(machine.nothingReady() == .giveUpAutoAdvance)
    #expect(machine.nothingReady() == .wait(stallBound: true))
  }

  @Test("After a stall with timers pending, the pump fires them one by one up to its bound, then waits without a bound")
  func firesStalledTimersThenWaits() {
    var machine = CaptureScopeStateMachine(
      autoAdvance: false, bodyTask: 0, maximumAutoAdvances: 9, maximumStalledTimers: 2)
    #expect(machine.nothingReady() == .wait(stallBound: true))
    machine.waitTimedOut(timersPending: false)
    #expect(machine.nothingReady() == .wait(stallBound: true))
    machine.waitTimedOut(timersPending: true)
    for _ in 0..<2 {
      #expect(machine.nothingReady() == .fireNextTimer)
      _ = machine.timerStep(.fired)
    }
    #expect(machine.nothingReady() == .wait(stallBound: false))
  }
}
