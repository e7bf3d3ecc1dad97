import AsyncSchedulers
import Dispatch
import Foundation

/// RxSwift's concurrent scheduler on a Dispatch queue, on a core `ConcurrentScheduler` (``core``):
/// actions may run at the same time, on the queue's threads.
///
/// Actions must not block for long. Disposing a returned disposable before its action starts means it
/// never runs. Timed work uses the core's timers with this scheduler's `leeway`.
///
/// Under `@Test(.virtualTime)` or `capturingAllTasks` (AsyncSchedulersTesting), work the test's code
/// schedules here runs on the test's `TestScheduler` instead, one job at a time on its virtual clock;
/// work scheduled from outside the test stays real.
public final class ConcurrentDispatchQueueScheduler: SchedulerType {
  /// RxSwift's name for the scheduler's time interval.
  public typealias TimeInterval = Foundation.TimeInterval
  /// RxSwift's name for the scheduler's time.
  public typealias Time = Date

  let scheduling: CoreScheduling

  /// The core scheduler this Rx scheduler runs on.
  public var core: any Scheduler { scheduling.core }

  /// A concurrent scheduler on `queue` (no limit beyond the queue's own).
  public init(queue: DispatchQueue, leeway: RxTimeInterval = .nanoseconds(0)) {
    scheduling = CoreScheduling(
      core: ConcurrentScheduler(name: "rx.concurrent", maxConcurrentJobs: .max, targetQueue: queue), leeway: leeway)
  }

  /// A concurrent scheduler on the global queue of quality of service `qos`.
  public convenience init(qos: DispatchQoS, leeway: RxTimeInterval = .nanoseconds(0)) {
    self.init(queue: .global(qos: qos.qosClass), leeway: leeway)
  }

  /// The wall-clock time.
  public var now: RxTime { Date() }

  /// Schedules `action(state)` on the core scheduler.
  public func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    scheduling.schedule(state, action: action)
  }

  /// Schedules `action(state)` after `dueTime` (`.never`: never; negative: at once).
  public func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    scheduling.scheduleRelative(state, dueTime: dueTime, action: action)
  }

  /// Runs `action` on a core repeating timer, one tick at a time.
  public func schedulePeriodic<StateType>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping (StateType) -> StateType
  ) -> any Disposable {
    scheduling.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
  }
}
