import AsyncSchedulers
import Dispatch

/// An Rx scheduler that runs on a core scheduler: the seam through which the Observable operators
/// reach the native signals' scheduler-aware operators (one implementation of each behaviour), also
/// for the Rx testing module's `TestScheduler`. Its core is its native target
/// (``_RxCoreBackedScheduler/_nativeTarget``): for the core-backed Rx schedulers, the core through the
/// virtual-time stand-in seam (``StandInCore``), so the timed operators' timers follow the scope's clock
/// like the scheduler's own work.
@usableFromInline package protocol CoreBackedScheduler: _RxCoreBackedScheduler {
  /// Whether `observe(on:)` hops through the core directly and periodic timers tick on the core's
  /// repeating timer (`true`), or both go through the Rx scheduler's own `schedule` and
  /// `schedulePeriodic` (RxTest's scheduler: such work comes a tick later, and a periodic timer re-arms
  /// after each tick, as in RxSwift).
  var hopsThroughCore: Bool { get }
}

extension CoreBackedScheduler {
  @usableFromInline package var hopsThroughCore: Bool { true }
}

extension SerialDispatchQueueScheduler: CoreBackedScheduler {
  /// The core through the virtual-time seam (the seam of `_RxCoreBackedScheduler`).
  public var _nativeTarget: any Scheduler { scheduling.target }
}

extension ConcurrentDispatchQueueScheduler: CoreBackedScheduler {
  /// The core through the virtual-time seam (the seam of `_RxCoreBackedScheduler`).
  public var _nativeTarget: any Scheduler { scheduling.target }
}

extension ConcurrentMainScheduler: CoreBackedScheduler {
  /// The main actor's core through the virtual-time seam (the seam of `_RxCoreBackedScheduler`).
  public var _nativeTarget: any Scheduler { asynchronous.target }
}

extension CurrentThreadScheduler: CoreBackedScheduler {
  /// The trampoline (the seam of `_RxCoreBackedScheduler`).
  public var _nativeTarget: any Scheduler { core }
}

/// The core scheduler the timed operators of `api` run their timers on: the Rx scheduler's own core;
/// for an Rx `SchedulerType` with none (`VirtualTimeScheduler`, `HistoricalScheduler`, a custom
/// scheduler), the Rx scheduler itself seen as a native scheduler (``SchedulerTypeCore``), so the
/// timers follow its clock; a failure naming `api` for a scheduler that cannot tell time.
@inlinable func coreScheduler(of scheduler: some ImmediateSchedulerType, for api: String) -> any Scheduler {
  // Inlinable so that, for a scheduler of a known type, the cast is decided when compiling.
  if let backed = scheduler as? any CoreBackedScheduler { return backed._nativeTarget }
  return timedCore(of: scheduler, for: api)
}

/// The core scheduler a periodic timer of `api` ticks on: ``coreScheduler(of:for:)``, except for an Rx
/// scheduler that does not hop through its core (RxTest's), whose own `schedulePeriodic` re-arms each
/// tick after it ran, as RxSwift's (the core's repeating timer keeps its place among timers due at one
/// instant instead).
@inlinable func periodicCore(of scheduler: some ImmediateSchedulerType, for api: String) -> any Scheduler {
  if let backed = scheduler as? any CoreBackedScheduler, backed.hopsThroughCore { return backed._nativeTarget }
  return timedCore(of: scheduler, for: api)
}

/// ``coreScheduler(of:for:)`` for a scheduler with no core of its own.
@usableFromInline func timedCore(of scheduler: some ImmediateSchedulerType, for api: String) -> any Scheduler {
  if let timed = scheduler as? any SchedulerType { return SchedulerTypeCore(timed) }
  argumentFailure(
    "\(api): the scheduler \(type(of: scheduler)) runs on no core scheduler and cannot tell time (it is no "
      + "SchedulerType); give a SchedulerType (MainScheduler, SerialDispatchQueueScheduler, "
      + "ConcurrentDispatchQueueScheduler, ConcurrentMainScheduler, CurrentThreadScheduler, HistoricalScheduler, …)")
}

extension DispatchTimeInterval {
  /// The interval as a duration for `api`, never negative; `.never` is a failure naming `api`.
  @usableFromInline func duration(for api: String, _ argument: String) -> Duration {
    guard let duration = rxDuration else {
      argumentFailure("\(api): \(argument) must not be .never (got \(self))")
    }
    return max(duration, .zero)
  }
}
