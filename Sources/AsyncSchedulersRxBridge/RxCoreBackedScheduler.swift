import AsyncSchedulers

/// An Rx scheduler that is also a native `Scheduler`: it gets its clock, callback,
/// timer, sleep and task-job members from here, each forwarded to the core it runs on, seen through the
/// virtual-time seam (so, in a `.virtualTime` test, to the test's scheduler, as its Rx work is).
///
/// `MainScheduler.instance`, `SerialDispatchQueueScheduler`, `ConcurrentDispatchQueueScheduler`,
/// `ConcurrentMainScheduler`, `CurrentThreadScheduler` and RxTest's `TestScheduler` conform, so they go
/// wherever a native scheduler is expected, with no `.core`: `Task.sleep(for:clock:)`,
/// `Task(executorPreference:)`, the native signals' operators, a view model's `any Scheduler`. Their
/// native members run the work on the same FIFO as their Rx work.
///
/// Two `now`s, one per world: Rx code reading `scheduler.now` on the concrete type gets RxSwift's `Date`
/// (the class's own member wins); code holding the scheduler as a native scheduler (`some Scheduler`,
/// `any Scheduler`, a `Clock`) gets its `SchedulerInstant` from this extension.
///
/// Only this package's schedulers conform; the requirement is the seam, not API.
public protocol _RxCoreBackedScheduler: Scheduler {
  /// The native scheduler the members forward to: the core, through the virtual-time seam.
  var _nativeTarget: any Scheduler { get }
}

extension _RxCoreBackedScheduler {
  /// The core's name.
  public var name: String { _nativeTarget.name }

  /// The native clock's current instant (the core's, or the capturing scope's virtual time). Rx code
  /// reading `now` on the concrete scheduler gets RxSwift's `Date` instead. Never blocks.
  public var now: SchedulerInstant { _nativeTarget.now }

  /// Schedules `action` on the core after the work already queued; see `Scheduler/schedule(_:)`.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction {
    _nativeTarget.schedule(action)
  }

  /// Runs `action` on the core after the work already queued, with no handle; see
  /// `Scheduler/execute(_:)`.
  public func execute(_ action: @escaping @Sendable () -> Void) { _nativeTarget.execute(action) }

  /// Schedules `action` on the core at `deadline`, at most `leeway` late; see
  /// `Scheduler/schedule(at:leeway:_:)`.
  @discardableResult
  public func schedule(
    at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    _nativeTarget.schedule(at: deadline, leeway: leeway, action)
  }

  /// Runs `action` on the core at `deadline`, at most `leeway` late, with no handle; see
  /// `Scheduler/execute(at:leeway:_:)`.
  public func execute(at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void)
  {
    _nativeTarget.execute(at: deadline, leeway: leeway, action)
  }

  /// Schedules a repeating `action` on the core; see `Scheduler/scheduleRepeating(startingAt:every:leeway:_:)`.
  @discardableResult
  public func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration = .zero,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    _nativeTarget.scheduleRepeating(startingAt: start, every: interval, leeway: leeway, action)
  }

  /// Suspends the current task until `deadline` on the core's clock; see
  /// `Scheduler/sleep(until:tolerance:)` (cancellation throws `CancellationError`).
  public func sleep(until deadline: SchedulerInstant, tolerance: Duration?) async throws {
    try await _nativeTarget.sleep(until: deadline, tolerance: tolerance)
  }

  /// Hands a job of a task that prefers this scheduler (`Task(executorPreference:)`,
  /// `withTaskExecutorPreference`, their `async let` children) to the core, where it runs in order with
  /// the scheduler's Rx work (serially when the core is serial). Never blocks.
  public func enqueue(_ job: consuming ExecutorJob) { _nativeTarget.enqueue(job) }
}
