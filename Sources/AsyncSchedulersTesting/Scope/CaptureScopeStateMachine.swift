/// What a capturing scope's pump does when nothing of its scope is ready: jump the clock to the next
/// timer (auto-advance), give auto-advance up when timers keep re-arming while the body never runs,
/// or wait for work to arrive, for at most the stall timeout until a stall has been found. Pure: each
/// event returns what the pump does next; ``CaptureScope`` does it.
package struct CaptureScopeStateMachine {
  /// What the pump does when nothing is ready.
  package enum IdleAction: Equatable {
    /// Fire the earliest timer, moving the clock to its deadline (then report ``timerStep(_:)``).
    case fireNextTimer
    /// Auto-advance gave up (it is now off): record what kept the clock moving and cancel the body.
    case giveUpAutoAdvance
    /// Block until work arrives; `stallBound`: for at most the stall timeout (then report
    /// ``waitTimedOut(timersPending:)``), else for as long as it takes (a stall was already found).
    case wait(stallBound: Bool)
    /// Work handed to Dispatch is in flight: block until it finishes or work arrives, for at most the
    /// stall timeout (then report ``outsideWorkTimedOut()``); the clock does not move meanwhile.
    case waitForOutsideWork
  }

  /// What firing the next timer found (the scheduler's answer, see ``PumpTimerStep``).
  package typealias TimerStep = PumpTimerStep

  /// How many jumps auto-advance makes while the body does not run before it gives up.
  package let maximumAutoAdvances: Int
  /// How many timers the pump fires one by one after a stall (auto-advance off) before it only waits.
  package let maximumStalledTimers: Int
  /// The body's task ID (0: unknown), to tell its jobs.
  package let bodyTask: UInt64

  /// Whether the clock jumps to the next timer when nothing is ready.
  package private(set) var isAutoAdvancing: Bool
  /// Whether a stall was found: the body waited the stall timeout with nothing ready and timers pending.
  package private(set) var hasStalled = false
  /// Timers fired one by one since the stall.
  package private(set) var stalledTimersFired = 0
  /// Jumps of the clock since the body last ran.
  package private(set) var jumpsSinceBodyRan = 0
  /// Whether the body has returned: from then on the clock does not move, so what the caller sees after
  /// the scope is the same every run, whatever isolation it returns to.
  package private(set) var bodyHasReturned = false
  /// Whether work in flight outlasted the stall timeout: it holds the clock no more until none is in
  /// flight.
  package private(set) var outsideWorkOverdue = false

  package init(autoAdvance: Bool, bodyTask: UInt64, maximumAutoAdvances: Int, maximumStalledTimers: Int) {
    isAutoAdvancing = autoAdvance
    self.bodyTask = bodyTask
    self.maximumAutoAdvances = maximumAutoAdvances
    self.maximumStalledTimers = maximumStalledTimers
  }

  /// Whether the pump must say which task each job it runs belongs to (``willRunJob(ofTask:)``): only
  /// while auto-advance counts jumps since the body ran.
  package var watchesBodyJobs: Bool { isAutoAdvancing && bodyTask != 0 }

  /// The pump is about to run a job of task `task` (0: no task's).
  package mutating func willRunJob(ofTask task: UInt64) {
    if isAutoAdvancing && bodyTask != 0 && task == bodyTask { jumpsSinceBodyRan = 0 }
  }

  /// Nothing of the scope is ready; `workInFlight`: Dispatch work the scope's code handed over has not
  /// finished (it holds the clock: what it sends may be due now).
  package mutating func nothingReady(workInFlight: Bool = false) -> IdleAction {
    // The body returned: what is left runs only as far as it can without time (its background tasks'
    // cancellation, the hop back to the caller); no stall is looked for.
    if bodyHasReturned { return .wait(stallBound: false) }
    if !workInFlight {
      outsideWorkOverdue = false
    } else if !outsideWorkOverdue {
      return .waitForOutsideWork
    }
    if isAutoAdvancing && jumpsSinceBodyRan >= maximumAutoAdvances {
      isAutoAdvancing = false
      return .giveUpAutoAdvance
    }
    if isAutoAdvancing || (hasStalled && stalledTimersFired < maximumStalledTimers) { return .fireNextTimer }
    return .wait(stallBound: !hasStalled)
  }

  /// The pump tried to fire the next timer; returns what it does next, or `nil` to look for ready work
  /// again.
  package mutating func timerStep(_ step: TimerStep) -> IdleAction? {
    switch step {
    case .fired:
      if isAutoAdvancing { jumpsSinceBodyRan += 1 } else { stalledTimersFired += 1 }
      return nil
    case .workArrived:
      return nil
    case .nothing:
      return .wait(stallBound: !hasStalled)
    }
  }

  /// The body returned (or threw): auto-advance stops, and the clock stays where the body left it.
  package mutating func bodyReturned() {
    bodyHasReturned = true
    isAutoAdvancing = false
  }

  /// The wait for work in flight ran out of the stall timeout: the work is reported, and it holds the
  /// clock no more until none is in flight.
  package mutating func outsideWorkTimedOut() { outsideWorkOverdue = true }

  /// The wait ran out of the stall timeout with nothing arriving; `timersPending`: timers could fire
  /// (then the pump fires them one by one so the body can finish).
  package mutating func waitTimedOut(timersPending: Bool) {
    if timersPending { hasStalled = true }
  }
}
