/// Where code is running right now.
public enum Schedulers {
  /// The scheduler running the current code, or `nil` when no scheduler of this package is.
  ///
  /// Inside a job or timer callback it is the scheduler running it; inside an actor bound to a
  /// scheduler, and in a task preferring a scheduler, it is that scheduler (also after an `await`,
  /// because the code resumes there). Schedulers set it around every job and restore the previous value
  /// afterwards, so it nests; the immediate and trampoline schedulers do not set it, so work they run
  /// sees the caller's. On the main actor outside any job it is ``MainActorScheduler/shared``. Reading
  /// it never blocks.
  public static var current: (any Scheduler)? {
    if let raw = CurrentSchedulerSlot.raw {
      return Unmanaged<AnyObject>.fromOpaque(raw).takeUnretainedValue() as? any Scheduler
    }
    return MainActorScheduler.isOnMainQueue ? MainActorScheduler.shared : nil
  }

  /// Runs `body` with `scheduler` as ``current``, restoring the previous value afterwards.
  package static func withCurrent<T>(_ scheduler: AnyObject, _ body: () throws -> T) rethrows -> T {
    let previous = CurrentSchedulerSlot.enter(scheduler)
    defer { CurrentSchedulerSlot.restore(previous) }
    return try body()
  }
}
