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
  /// ready work waiting, or, after a first stall, timers pending).
  package mutating func stallWatchEnded() -> StallWatchEnd {
    isStallWatchArmed = false
    guard driveGeneration == 0, !isDriving, !isCapturing else { return .noStall }
    guard queues.readyCount > 0 || (hasStalled && queues.timerCount > 0) else { return .noStall }
    defer { hasStalled = true }
    return hasStalled ? .stalledAgain : .stalled
  }
}
