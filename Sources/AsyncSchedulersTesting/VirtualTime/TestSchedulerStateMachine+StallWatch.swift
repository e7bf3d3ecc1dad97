import AsyncSchedulers

/// The stall watch's part of the scheduler's machine (outside capturing scopes): when a job waits on a
/// scheduler nothing has driven, the watch arms; when it ends, the machine says whether that was a stall.
extension TestSchedulerStateMachine {
  /// Arms the stall watch for a task or actor job that arrived from outside a scheduler that nothing
  /// has ever driven and no scope captures; returns `true` when a watch starts, `false` when one is
  /// already armed, or the scheduler has been driven (then the test drives it: work left when it stops
  /// is the test's choice, reported by `expectNoPendingWork`, not a hang), or a scope captures (its pump
  /// runs the work).
  package mutating func armStallWatch() -> Bool {
    guard !isStallWatchArmed, driveGeneration == 0, !isDriving, !isCapturing else { return false }
    isStallWatchArmed = true
    return true
  }

  /// Arms the stall watch for a timer added to a scheduler the watch has already found stalled and the
  /// test still has not driven (the watch drives it now); returns `true` when a watch starts. The code
  /// the watch ran may leave the scheduler and add its sleep's timer later, from elsewhere, after the
  /// re-armed watch has ended with nothing pending: without this, that sleep would wait forever. Before a
  /// first stall a timer arms nothing: timers the test sets up and drives later are its choice.
  package mutating func armStallWatchForTimer() -> Bool {
    guard hasStalled else { return false }
    return armStallWatch()
  }

  /// Watches the sleep `timer` wakes (a task's sleep on the scheduler's own clock) while nothing has
  /// driven the scheduler and no scope captures it; returns `true` when a watch starts. A task awaiting
  /// a sleep on a clock nothing moves would wait forever: when the watch ends with the sleep still
  /// pending and the scheduler still never driven, that is a stall.
  package mutating func watchSleep(_ timer: ScheduledTimer) -> Bool {
    guard driveGeneration == 0, !isCapturing else { return false }
    watchSleepTimer(timer)
    return armStallWatch()
  }

  /// How a stall watch ended.
  package enum StallWatchEnd: Equatable {
    /// No stall: the scheduler was driven, captured, or has nothing waiting.
    case noStall
    /// The first stall (reported).
    case stalled
    /// A stall after the first (the work runs without a new report).
    case stalledAgain
  }

  /// Ends the stall watch: whether the scheduler stalled (still never driven, no scope capturing, and
  /// ready work waiting, a watched sleep pending, or, after a first stall, timers pending).
  package mutating func stallWatchEnded() -> StallWatchEnd {
    isStallWatchArmed = false
    guard driveGeneration == 0, !isDriving, !isCapturing else { return .noStall }
    guard queues.readyCount > 0 || sleeps.hasWatchedSleep || (hasStalled && queues.timerCount > 0) else {
      return .noStall
    }
    defer { hasStalled = true }
    return hasStalled ? .stalledAgain : .stalled
  }
}
