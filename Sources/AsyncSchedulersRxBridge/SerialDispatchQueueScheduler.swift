import AsyncSchedulers
import Dispatch
import Foundation

/// RxSwift's serial scheduler on a Dispatch queue, on a core scheduler: one job at a time, in FIFO
/// order, shared with the callbacks, actors and tasks of that core scheduler (``core``).
///
/// Actions run on the core scheduler (a `SerialScheduler` targeting the given queue or QoS); they must
/// not block for long. Disposing a returned disposable before its action starts means it never runs.
/// Timed work uses the core's timers with this scheduler's `leeway`; periodic work is a native repeating
/// timer anchored to its grid (ticks a stall skipped are coalesced, where Rx's Dispatch timer would
/// deliver them late).
///
/// Under `@Test(.virtualTime)` or `capturingAllTasks` (AsyncSchedulersTesting), work the test's code
/// schedules here runs on the test's `TestScheduler` instead, on its virtual clock (``core`` stays the
/// real core); work scheduled from outside the test stays real.
open class SerialDispatchQueueScheduler: SchedulerType, @unchecked Sendable {
  /// RxSwift's name for the scheduler's time interval.
  public typealias TimeInterval = Foundation.TimeInterval
  /// RxSwift's name for the scheduler's time.
  public typealias Time = Date

  // Why @unchecked Sendable: the class is open (Rx's `MainScheduler` subclasses it); its own state is
  // `let`s of Sendable types.

  @usableFromInline let scheduling: CoreScheduling

  /// The core scheduler this Rx scheduler runs on: give it to native code (actors, tasks, signals) to
  /// share the same FIFO.
  public var core: any Scheduler { scheduling.core }

  /// Wraps an existing core scheduler.
  public init(core: any Scheduler, leeway: RxTimeInterval = .nanoseconds(0)) {
    scheduling = CoreScheduling(core: core, leeway: leeway)
  }

  /// A serial scheduler on a new serial queue named `internalSerialQueueName`, configured by
  /// `serialQueueConfiguration` before use.
  public convenience init(
    internalSerialQueueName: String, serialQueueConfiguration: ((DispatchQueue) -> Void)? = nil,
    leeway: RxTimeInterval = .nanoseconds(0)
  ) {
    let queue = DispatchQueue(label: internalSerialQueueName)
    serialQueueConfiguration?(queue)
    self.init(serialQueue: queue, internalSerialQueueName: internalSerialQueueName, leeway: leeway)
  }

  /// A serial scheduler over `queue` (serial or concurrent: the scheduler serializes its work).
  public convenience init(
    queue: DispatchQueue, internalSerialQueueName: String, leeway: RxTimeInterval = .nanoseconds(0)
  ) {
    self.init(core: SerialScheduler(name: internalSerialQueueName, targetQueue: queue), leeway: leeway)
  }

  /// A serial scheduler on a global queue of quality of service `qos`.
  public convenience init(
    qos: DispatchQoS, internalSerialQueueName: String = "rx.global_dispatch_queue.serial",
    leeway: RxTimeInterval = .nanoseconds(0)
  ) {
    self.init(
      core: SerialScheduler(name: internalSerialQueueName, targetQueue: .global(qos: qos.qosClass)), leeway: leeway)
  }

  /// A serial scheduler on `serialQueue` itself.
  public convenience init(
    serialQueue: DispatchQueue, internalSerialQueueName: String = "rx.global_dispatch_queue.serial",
    leeway: RxTimeInterval = .nanoseconds(0)
  ) {
    self.init(core: SerialScheduler(name: internalSerialQueueName, targetQueue: serialQueue), leeway: leeway)
  }

  /// The wall-clock time.
  public var now: RxTime { Date() }

  /// Schedules `action(state)` on the core scheduler's FIFO.
  @inlinable public final func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    scheduling.schedule(state, action: action)
  }

  /// Schedules `action(state)` after `dueTime` on a core timer (`.never`: never; negative: at once).
  public final func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    scheduling.scheduleRelative(state, dueTime: dueTime, action: action)
  }

  /// Runs `action` on a core repeating timer (see ``SchedulerType/schedulePeriodic(_:startAfter:period:action:)``).
  public final func schedulePeriodic<StateType>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping (StateType) -> StateType
  ) -> any Disposable {
    scheduling.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
  }
}
