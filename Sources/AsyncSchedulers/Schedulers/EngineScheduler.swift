/// The engine of one of this library's real-time schedulers (its queue, timers and workers). Opaque:
/// only the library creates one.
public struct _SchedulerEngine: Sendable {
  /// The engine's storage and state machine.
  @usableFromInline let queue: WorkQueue

  init(_ queue: WorkQueue) { self.queue = queue }
}

/// A scheduler that runs on this library's engine: ``SerialScheduler``, ``ConcurrentScheduler`` and
/// ``MainActorScheduler`` get their clock, callback, timer and task-job members from here (the way
/// swift-nio's `NIOSerialEventLoopExecutor` gives executors their `enqueue`), instead of each forwarding
/// them to its engine. A scheduler overrides what it does differently (the main-actor scheduler's
/// inline-when-idle path). Only the library's schedulers conform: an engine cannot be made outside it.
public protocol _EngineScheduler: Scheduler {
  /// The engine this scheduler runs on.
  var _engine: _SchedulerEngine { get }
}

extension _EngineScheduler {
  /// The number of timers pending in this scheduler's timer heap (for diagnostics and tests).
  @inlinable public var pendingTimerCount: Int { _engine.queue.pendingTimerCount }

  /// The current instant on the real-time (monotonic uptime) timeline. Never blocks.
  @inlinable public var now: SchedulerInstant { .uptimeNow }

  /// Schedules `action` after the work already queued; see ``Scheduler/schedule(_:)``.
  @inlinable @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction {
    _engine.queue.schedule(action)
  }

  /// Runs `action` after the work already queued, with no handle; see ``Scheduler/execute(_:)``.
  @inlinable
  public func execute(_ action: @escaping @Sendable () -> Void) {
    _engine.queue.execute(action)
  }

  /// Schedules `action` at `deadline`, at most `leeway` late; see ``Scheduler/schedule(at:leeway:_:)``.
  @inlinable @discardableResult
  public func schedule(
    at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    _engine.queue.schedule(at: deadline, leeway: leeway, action)
  }

  /// Runs `action` at `deadline`, at most `leeway` late, with no handle; see
  /// ``Scheduler/execute(at:leeway:_:)``.
  @inlinable
  public func execute(at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void)
  {
    _engine.queue.execute(at: deadline, leeway: leeway, action)
  }

  /// Schedules a repeating `action`; see ``Scheduler/scheduleRepeating(startingAt:every:leeway:_:)``.
  @inlinable @discardableResult
  public func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration = .zero,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    _engine.queue.scheduleRepeating(startingAt: start, every: interval, leeway: leeway, action)
  }

  /// Runs a job of a task that prefers this scheduler (`Task(executorPreference:)`,
  /// `withTaskExecutorPreference`, and their `async let` and task-group children).
  @inlinable
  public func enqueue(_ job: consuming ExecutorJob) {
    _engine.queue.enqueue(taskJob: UnownedJob(job))
  }

  /// Queues `job` after the work already queued (the bridge's path).
  @inlinable package func submit(runnable job: consuming any RunnableJob) {
    _engine.queue.submit(runnable: job)
  }
}
