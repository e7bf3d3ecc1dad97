import AsyncSchedulers
import Dispatch

/// An Rx scheduler that runs on a core scheduler: the seam through which the Observable operators
/// reach the native signals' scheduler-aware operators (one implementation of each behaviour), also
/// for the Rx testing module's `TestScheduler`.
@usableFromInline package protocol CoreBackedScheduler {
  /// The core scheduler the Rx scheduler's timers run on.
  var coreScheduler: any Scheduler { get }

  /// Whether `observe(on:)` and `subscribe(on:)` hop through the core directly (`true`), or through
  /// the Rx scheduler's own `schedule` (RxTest's scheduler, which delays such work by one tick).
  var hopsThroughCore: Bool { get }
}

extension CoreBackedScheduler {
  @usableFromInline package var hopsThroughCore: Bool { true }
}

// The core-backed Rx schedulers give their core through the virtual-time stand-in seam
// (``StandInCore``): the timed operators' timers follow the scope's clock like the scheduler's own work.
extension SerialDispatchQueueScheduler: CoreBackedScheduler {
  @usableFromInline package var coreScheduler: any Scheduler { scheduling.target }
}
extension ConcurrentDispatchQueueScheduler: CoreBackedScheduler {
  @usableFromInline package var coreScheduler: any Scheduler { scheduling.target }
}
extension ConcurrentMainScheduler: CoreBackedScheduler {
  @usableFromInline package var coreScheduler: any Scheduler { asynchronous.target }
}
extension CurrentThreadScheduler: CoreBackedScheduler {
  @usableFromInline package var coreScheduler: any Scheduler { core }
}

/// The core scheduler the timed operators of `api` run their timers on: the Rx scheduler's own core;
/// for an Rx `SchedulerType` with none (`VirtualTimeScheduler`, `HistoricalScheduler`, a custom
/// scheduler), the Rx scheduler itself seen as a native scheduler (``SchedulerTypeCore``), so the
/// timers follow its clock; a failure naming `api` for a scheduler that cannot tell time.
@usableFromInline func coreScheduler(of scheduler: some ImmediateSchedulerType, for api: String) -> any Scheduler {
  if let backed = scheduler as? any CoreBackedScheduler { return backed.coreScheduler }
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
