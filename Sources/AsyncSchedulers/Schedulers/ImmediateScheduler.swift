import Dispatch

/// A scheduler that runs work inline, on the calling thread, before `schedule` returns (RAC
/// `+immediateScheduler`, ReactiveSwift `ImmediateScheduler`).
///
/// - ``schedule(_:)`` runs the action at once and returns ``ScheduledAction/finished``: there is nothing
///   left to cancel. It does not set ``Schedulers/current``: the action sees the caller's.
/// - ``schedule(at:leeway:_:)`` **blocks the calling thread** until the deadline, then runs the action
///   (RAC's `after:schedule:`); so does sleeping on its clock, but cancelling the sleeping task ends the
///   sleep at once. A deadline at ``SchedulerInstant/distantFuture`` never blocks: such a timer never runs,
///   and such a sleep holds no thread until its task is cancelled.
/// - ``scheduleRepeating(startingAt:every:leeway:_:)`` is a precondition failure: it could never return.
/// - As a task executor it runs each job inline on the thread that enqueues it. It is not a serial
///   executor: nothing stops two threads from running its work at the same time.
///
/// Deep recursion through it grows the stack; use ``TrampolineScheduler`` for recursive scheduling.
public final class ImmediateScheduler: Scheduler {
  /// The shared immediate scheduler.
  public static let shared = ImmediateScheduler()

  /// A name for debugging.
  public let name: String

  /// Creates an immediate scheduler.
  public init(name: String = "AsyncSchedulers.ImmediateScheduler") { self.name = name }

  /// The current instant on the real-time (monotonic uptime) timeline.
  public var now: SchedulerInstant { .uptimeNow }

  /// Runs `action` inline and returns ``ScheduledAction/finished``.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction {
    action()
    return .finished
  }

  /// Blocks the calling thread until `deadline`, then runs `action` inline.
  ///
  /// A deadline at ``SchedulerInstant/distantFuture`` (where huge delays saturate) never comes: the call
  /// returns at once, without blocking, and `action` never runs (it is released when the returned handle
  /// is disposed or dropped).
  @discardableResult
  public func schedule(
    at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    guard deadline < .distantFuture else { return ScheduledAction(action) }
    blockUntil(deadline)
    action()
    return .finished
  }

  /// Suspends the current task until `deadline`, holding the calling thread meanwhile (like
  /// ``schedule(at:leeway:_:)``); cancelling the task ends the sleep at once with `CancellationError`. A
  /// sleep until ``SchedulerInstant/distantFuture`` holds no thread: it lasts until the task is
  /// cancelled.
  public func sleep(until deadline: SchedulerInstant, tolerance: Duration? = nil) async throws {
    try await blockingSleep(until: deadline)
  }

  /// Not supported: stops the program with a message (RAC's immediate scheduler asserts the same).
  @discardableResult
  public func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration = .zero,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    argumentFailure("ImmediateScheduler.scheduleRepeating: cannot run repeating work, the call would never return")
  }

  /// Runs the job inline on the enqueuing thread.
  public func enqueue(_ job: consuming ExecutorJob) {
    UnownedJob(job).runSynchronously(on: asUnownedTaskExecutor())
  }
}

/// Blocks the calling thread until `deadline` on the real-time timeline.
func blockUntil(_ deadline: SchedulerInstant) {
  guard deadline > .uptimeNow else { return }
  _ = DispatchSemaphore(value: 0).wait(timeout: deadline.dispatchTime)
}
