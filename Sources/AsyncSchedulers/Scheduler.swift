/// A scheduler: *where* work runs (it is a `TaskExecutor`, and the serial ones also serve actors) and
/// *when* (it is its own `Clock`, with ``SchedulerInstant`` as its instant).
///
/// Every scheduler offers three ways in:
/// - **Async**: `Task(executorPreference: scheduler) { … }`, `withTaskExecutorPreference(scheduler)`,
///   ``Scheduler/perform(_:)``, `sleep(for:)`, `sleep(until:tolerance:)`,
///   ``Scheduler/ticks(every:leeway:startingAt:)``.
/// - **Callbacks**: ``schedule(_:)``, ``schedule(at:leeway:_:)``,
///   ``scheduleRepeating(startingAt:every:leeway:_:)``, each returning a ``ScheduledAction`` that cancels
///   the work when disposed.
/// - **Actors** (serial schedulers):
///   `nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.unownedSerialExecutor }`.
///
/// Callback closures run on the scheduler and must not block for long: a serial scheduler runs one
/// job at a time. Library code built on a scheduler never calls `Task.sleep` and never starts bare
/// tasks; time goes through the scheduler's clock, which is what lets a virtual-time scheduler see and
/// order everything.
public protocol Scheduler: Clock, TaskExecutor where Instant == SchedulerInstant {
  /// A name for debugging and logs.
  var name: String { get }

  /// Schedules `action` to run on this scheduler as soon as possible, after work already queued.
  ///
  /// The action runs on the scheduler (never inline on the caller, except for the immediate and
  /// trampoline schedulers and an inline-when-idle main scheduler, which say so). Disposing the
  /// returned handle before the action starts means it never runs and releases it at once.
  @discardableResult
  func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction

  /// Runs `action` on this scheduler as soon as possible, after work already queued, with no handle:
  /// the cheapest way in, the counterpart of `DispatchQueue.async`.
  ///
  /// Same ordering and threading as ``schedule(_:)``, but it cannot be cancelled, and no object is
  /// allocated for it (only the closure's own context, if it captures anything).
  func execute(_ action: @escaping @Sendable () -> Void)

  /// Schedules `action` to run on this scheduler at `deadline` (never before it), or as soon as
  /// possible when the deadline has passed.
  ///
  /// `leeway` is how late the timer may fire to save power: never a reason to fire early. The real-time
  /// schedulers of this package honour it: timers whose windows (deadline to deadline + leeway)
  /// overlap, on one scheduler or several, are fired by one wake-up of the timer thread. A negative
  /// leeway counts as zero; virtual time ignores it (a test scheduler fires every timer at its
  /// deadline). Jobs with equal deadlines run in the order they were scheduled.
  @discardableResult
  func schedule(
    at deadline: SchedulerInstant, leeway: Swift.Duration, _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction

  /// Runs `action` on this scheduler at `deadline` (never before it), or as soon as possible when the
  /// deadline has passed, with no handle: the counterpart of `DispatchQueue.asyncAfter`.
  ///
  /// Same timing, ordering and threading as ``schedule(at:leeway:_:)``, but it cannot be cancelled; the
  /// real-time schedulers keep the closure in their timer heap's entry and allocate nothing else for
  /// it. The default implementation calls ``schedule(at:leeway:_:)`` and drops the handle.
  func execute(at deadline: SchedulerInstant, leeway: Swift.Duration, _ action: @escaping @Sendable () -> Void)

  /// Schedules `action` to run at `start` and then every `interval`, on the grid
  /// `start + interval × k` (no accumulated drift).
  ///
  /// When the scheduler falls behind by more than an interval (a long run, other work ahead), the
  /// missed ticks are coalesced: the action runs once, late (at once after an overrunning run, on any
  /// scheduler, concurrent ones included), and the next run is at the next grid point still in the
  /// future. The timer
  /// keeps running when the handle is dropped; it stops when the handle is disposed.
  /// - Precondition: `interval > .zero` and `leeway >= .zero`.
  @discardableResult
  func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Swift.Duration, leeway: Swift.Duration,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction

  /// Suspends the current task until `deadline` on this scheduler's clock.
  ///
  /// A requirement (restating `Clock`'s), so that code holding a generic `some Scheduler` or an
  /// `any Scheduler` (as every signal operator does) reaches the type's own sleep: the default, in
  /// `Scheduler+Time.swift`, puts one timer on the scheduler; the inline schedulers hold the calling
  /// thread instead, and only their own sleep ends at once when the task is cancelled. A deadline that
  /// is not in the future returns at once. Cancelling the task throws `CancellationError`.
  func sleep(until deadline: SchedulerInstant, tolerance: Swift.Duration?) async throws
}

extension Scheduler {
  /// Runs `action` through ``schedule(_:)``, discarding the handle; schedulers with a cheaper path
  /// provide their own.
  public func execute(_ action: @escaping @Sendable () -> Void) { _ = schedule(action) }

  /// Runs `action` at `deadline` through ``schedule(at:leeway:_:)``, discarding the handle; schedulers
  /// with a cheaper path provide their own.
  public func execute(
    at deadline: SchedulerInstant, leeway: Swift.Duration = .zero, _ action: @escaping @Sendable () -> Void
  ) {
    _ = schedule(at: deadline, leeway: leeway, action)
  }

  /// The scheduler's clock: the scheduler itself (every scheduler is a `Clock`).
  public var clock: Self { self }

  /// One nanosecond: schedulers keep time in nanoseconds.
  public var minimumResolution: Swift.Duration { .nanoseconds(1) }
}

/// Checks the arguments of a repeating schedule, with a message naming the offending argument.
@inline(__always)
package func preconditionValidRepeating(interval: Duration, leeway: Duration) {
  checkArgument(interval > .zero, "scheduleRepeating: interval must be greater than zero (got \(interval))")
  checkArgument(leeway >= .zero, "scheduleRepeating: leeway must not be negative (got \(leeway))")
}

/// A scheduler whose clock is virtual (the test scheduler): its instants are positions on its own
/// timeline, not uptime, so layers that convert dates (the RAC bridge) measure them from a fixed epoch.
package protocol VirtualTimeline: Scheduler {}
