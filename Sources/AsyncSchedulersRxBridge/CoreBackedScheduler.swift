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

/// The core scheduler behind `scheduler`, or a failure naming `api` for a scheduler that has none
/// (`VirtualTimeScheduler`, `OperationQueueScheduler`, a custom `SchedulerType`): the timed operators
/// run on core timers.
func coreScheduler(of scheduler: some ImmediateSchedulerType, for api: String) -> any Scheduler {
  if let backed = scheduler as? any CoreBackedScheduler { return backed.coreScheduler }
  argumentFailure(
    "\(api): the scheduler \(type(of: scheduler)) runs on no core scheduler; timed operators need one "
      + "(MainScheduler, SerialDispatchQueueScheduler, ConcurrentDispatchQueueScheduler, "
      + "ConcurrentMainScheduler, CurrentThreadScheduler)")
}

extension DispatchTimeInterval {
  /// The interval as a duration for `api`, never negative; `.never` is a failure naming `api`.
  func duration(for api: String, _ argument: String) -> Duration {
    guard let duration = rxDuration else {
      argumentFailure("\(api): \(argument) must not be .never (got \(self))")
    }
    return max(duration, .zero)
  }
}
