import Dispatch

/// A scheduler that runs up to a fixed number of jobs at once (Rx `ConcurrentDispatchQueueScheduler`,
/// `OperationQueueScheduler` with `maxConcurrentOperationCount`).
///
/// Jobs start in FIFO order; at most ``maxConcurrentJobs`` run at the same time, each on a thread of the
/// target queue. It is a task executor (`Task(executorPreference:)`), but not a serial executor: an actor
/// cannot live on it. Timers use its own heap, like the serial scheduler's; by default nothing spins
/// (see ``SchedulerLatencyMode``).
public final class ConcurrentScheduler: Scheduler, RunnableJobSubmitting, Sendable {
  /// A name for debugging.
  public let name: String
  /// The most jobs that run at the same time.
  public let maxConcurrentJobs: Int
  /// Whether its workers may spin for punctuality (always ``SchedulerLatencyMode/efficient`` on a
  /// target queue of your choosing).
  public let latencyMode: SchedulerLatencyMode
  let workQueue: WorkQueue

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
    workQueue = WorkQueue(
      name: name, queue: .global(qos: priority.qos), width: maxConcurrentJobs, isolation: .none,
      lowLatency: latencyMode == .lowLatency)
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
    workQueue = WorkQueue(name: name, queue: targetQueue, width: maxConcurrentJobs, isolation: .none, lowLatency: false)
    workQueue.attach(self, serialExecutor: nil)
  }

  /// The number of timers pending in this scheduler's timer heap (for diagnostics and tests).
  public var pendingTimerCount: Int { workQueue.pendingTimerCount }

  // MARK: Scheduler

  /// The current instant on the real-time (monotonic uptime) timeline. Never blocks.
  public var now: SchedulerInstant { .uptimeNow }

  /// Schedules `action` to start after the work already queued; see ``Scheduler/schedule(_:)``.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction {
    workQueue.schedule(action)
  }

  /// Runs `action` after the work already queued, with no handle; see ``Scheduler/execute(_:)``.
  public func execute(_ action: @escaping @Sendable () -> Void) {
    workQueue.submit(.closure(action))
  }

  /// Schedules `action` at `deadline`, at most `leeway` late; see ``Scheduler/schedule(at:leeway:_:)``.
  @discardableResult
  public func schedule(
    at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    workQueue.schedule(at: deadline, leeway: leeway, action)
  }

  /// Runs `action` at `deadline`, at most `leeway` late, with no handle; see
  /// ``Scheduler/execute(at:leeway:_:)``.
  public func execute(at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void)
  {
    workQueue.addTimer(.closure(action), at: deadline, leeway: leeway)
  }

  /// Schedules a repeating `action`; see ``Scheduler/scheduleRepeating(startingAt:every:leeway:_:)``.
  @discardableResult
  public func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration = .zero,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    workQueue.scheduleRepeating(startingAt: start, every: interval, leeway: leeway, action)
  }

  /// Runs a job of a task that prefers this scheduler (nonisolated: jobs may run at the same time).
  public func enqueue(_ job: consuming ExecutorJob) {
    workQueue.submit(.taskJob(UnownedJob(job)))
  }

  /// Queues `job` after the work already queued (the bridges' path).
  @usableFromInline package func submit(runnable job: consuming any RunnableJob) {
    workQueue.submit(.runnable(job))
  }
}
