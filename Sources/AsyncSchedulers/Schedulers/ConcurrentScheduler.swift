import Dispatch

/// A scheduler that runs up to a fixed number of jobs at once (Rx `ConcurrentDispatchQueueScheduler`,
/// `OperationQueueScheduler` with `maxConcurrentOperationCount`).
///
/// Jobs start in FIFO order; at most ``maxConcurrentJobs`` run at the same time, each on a thread of the
/// target queue. It is a task executor (`Task(executorPreference:)`), but not a serial executor: an actor
/// cannot live on it. Timers use its own heap, like the serial scheduler's, and on a global queue its
/// workers linger and wait for imminent timers as ``SerialScheduler``'s do (never on a `targetQueue`).
public final class ConcurrentScheduler: WorkQueueScheduler, @unchecked Sendable {
  // Why @unchecked Sendable: inherits WorkQueueScheduler's invariant (only `let`s and a Mutex).

  /// The most jobs that run at the same time.
  public var maxConcurrentJobs: Int { width }

  /// Creates a scheduler running at most `maxConcurrentJobs` jobs at once at `priority`.
  ///
  /// A limit above `Int32.max` (`.max`, say) is taken as `Int32.max`: no practical limit (Dispatch's
  /// thread pool is the limit then).
  /// - Precondition: `maxConcurrentJobs >= 1`.
  public init(
    name: String = "AsyncSchedulers.ConcurrentScheduler", maxConcurrentJobs: Int,
    priority: SchedulerPriority = .default
  ) {
    precondition(maxConcurrentJobs >= 1, "maxConcurrentJobs must be at least 1 (got \(maxConcurrentJobs))")
    super.init(name: name, queue: .global(qos: priority.qos), width: maxConcurrentJobs, isolation: .none, spins: true)
  }

  /// Creates a scheduler running at most `maxConcurrentJobs` jobs at once on `targetQueue`; a limit above
  /// `Int32.max` is taken as `Int32.max`.
  /// - Precondition: `maxConcurrentJobs >= 1`.
  public init(name: String = "AsyncSchedulers.ConcurrentScheduler", maxConcurrentJobs: Int, targetQueue: DispatchQueue) {
    precondition(maxConcurrentJobs >= 1, "maxConcurrentJobs must be at least 1 (got \(maxConcurrentJobs))")
    super.init(name: name, queue: targetQueue, width: maxConcurrentJobs, isolation: .none, spins: false)
  }
}
