/// One unit of work waiting in a scheduler's queue.
package enum Work {
  /// A callback job (or a due timer).
  case action(ScheduledAction)
  /// A fire-and-forget callback (no handle; `Scheduler.execute(_:)`).
  case closure(@Sendable () -> Void)
  /// A job object handed over by a layer on top of the core (the RAC bridge).
  case runnable(any RunnableJob)
  /// An actor job: enqueued through the scheduler's serial executor.
  case job(UnownedJob)
  /// A task job: enqueued through the scheduler as a task executor.
  case taskJob(UnownedJob)
}

/// The engine's FIFO of work: the one FIFO of the package (``FIFOBuffer``), holding ``Work``.
typealias WorkFIFO = FIFOBuffer<Work>
