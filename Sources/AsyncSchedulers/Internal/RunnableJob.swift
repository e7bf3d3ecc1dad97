/// An object a scheduler can queue and run directly, so a layer on top of the core (the RAC bridge)
/// can hand over its own handle object as the job, without wrapping it in a closure: one allocation
/// per job, as with the core's own ``ScheduledAction``.
@usableFromInline package protocol RunnableJob: AnyObject, Sendable {
  /// Runs the job unless it was cancelled. Called on the scheduler, with no lock held.
  func runJob()
  /// Whether the job was cancelled (a stepping test scheduler skips such jobs).
  var isJobCancelled: Bool { get }
}

/// A scheduler that queues ``RunnableJob``s directly, in the same FIFO as its other work.
@usableFromInline package protocol RunnableJobSubmitting: Scheduler {
  /// Queues `job` after the work already queued.
  func submit(runnable job: consuming any RunnableJob)
}
