import Dispatch

/// A scheduler that runs up to a fixed number of jobs at once (Rx `ConcurrentDispatchQueueScheduler`,
/// `OperationQueueScheduler` with `maxConcurrentOperationCount`).
///
/// Jobs start in FIFO order; at most ``maxConcurrentJobs`` run at the same time, each on a thread of the
/// target queue. It is a task executor (`Task(executorPreference:)`), but not a serial executor: an actor
/// cannot live on it. Timers use its own heap, like the serial scheduler's; by default nothing spins
/// (see ``SchedulerLatencyMode``).
public final class ConcurrentScheduler: _EngineScheduler, RunnableJobSubmitting, Sendable {
  /// A name for debugging.
  public let name: String
  /// The most jobs that run at the same time.
  public let maxConcurrentJobs: Int
  /// Whether its workers may spin for punctuality (always ``SchedulerLatencyMode/efficient`` on a
  /// target queue of your choosing).
  public let latencyMode: SchedulerLatencyMode
  /// The engine this scheduler runs on.
  public let _engine: _SchedulerEngine
  /// The engine's storage.
  var workQueue: WorkQueue { _engine.queue }

  /// Creates a scheduler running at most `maxConcurrentJobs` jobs at once at `priority`, efficient
  /// (never spinning) unless you ask for ``SchedulerLatencyMode/lowLatency``.
  ///
  /// A limit above `Int32.max` (`.max`, say) is taken as `Int32.max`: no practical limit (Dispatch's
  /// thread pool is the limit then).
  /// - Precondition: `maxConcurrentJobs >= 1`.
  public init(
    name: String = "AsyncSchedulers.ConcurrentScheduler", maxConcurrentJobs: Int,
    priority: SchedulerPriority = .default, latencyMode: SchedulerLatencyMode = .efficient
  ) {
    checkArgument(
      maxConcurrentJobs >= 1, "ConcurrentScheduler: maxConcurrentJobs must be at least 1 (got \(maxConcurrentJobs))")
    self.name = name
    self.maxConcurrentJobs = Int(Int32(clamping: maxConcurrentJobs))
    self.latencyMode = latencyMode
    _engine = _SchedulerEngine(
      WorkQueue(
        name: name, queue: .global(qos: priority.qos), width: maxConcurrentJobs, isolation: .none,
        lowLatency: latencyMode == .lowLatency))
    workQueue.attach(self, serialExecutor: nil)
  }

  /// Creates a scheduler running at most `maxConcurrentJobs` jobs at once on `targetQueue`; a limit above
  /// `Int32.max` is taken as `Int32.max`. Its workers never spin on `targetQueue`.
  /// - Precondition: `maxConcurrentJobs >= 1`.
  public init(name: String = "AsyncSchedulers.ConcurrentScheduler", maxConcurrentJobs: Int, targetQueue: DispatchQueue)
  {
    checkArgument(
      maxConcurrentJobs >= 1, "ConcurrentScheduler: maxConcurrentJobs must be at least 1 (got \(maxConcurrentJobs))")
    self.name = name
    self.maxConcurrentJobs = Int(Int32(clamping: maxConcurrentJobs))
    self.latencyMode = .efficient
    _engine = _SchedulerEngine(
      WorkQueue(name: name, queue: targetQueue, width: maxConcurrentJobs, isolation: .none, lowLatency: false))
    workQueue.attach(self, serialExecutor: nil)
  }
}
