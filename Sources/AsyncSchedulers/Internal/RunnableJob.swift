/// An object a scheduler can queue and run directly, so a layer on top of the core (the RAC bridge)
/// can hand over its own handle object as the job, without wrapping it in a closure: one allocation
/// per job, as with the core's own ``ScheduledAction``.
@usableFromInline package protocol RunnableJob: AnyObject, Sendable {
  /// Runs the job unless it was cancelled. Called on the scheduler, with no lock held.
  func runJob()
  /// Whether the job was cancelled (a stepping test scheduler skips such jobs).
  var isJobCancelled: Bool { get }
  /// What the job is, for a test scheduler's failure messages (read through the witness table, with no
  /// cast, under the test scheduler's lock); a bridged block unless the job says otherwise.
  var role: RunnableJobRole { get }
}

/// What a ``RunnableJob`` is, as a test scheduler's failure messages name it.
@usableFromInline package enum RunnableJobRole: Sendable {
  /// A block a bridged scheduler handed over (RACScheduler, an Rx scheduler).
  case bridgedBlock
  /// A job of a task or an actor (a capturing scope's main-actor job).
  case taskJob
  /// A block for the main queue (`DispatchQueue.main.async`, a stood-in main scheduler's callback).
  case mainQueueBlock
}

extension RunnableJob {
  /// A bridged block.
  @inlinable package var role: RunnableJobRole { .bridgedBlock }
}

/// A scheduler that queues ``RunnableJob``s directly, in the same FIFO as its other work.
@usableFromInline package protocol RunnableJobSubmitting: Scheduler {
  /// Queues `job` after the work already queued.
  func submit(runnable job: consuming any RunnableJob)
}
