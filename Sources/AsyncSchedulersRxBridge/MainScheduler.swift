import AsyncSchedulers
import Dispatch
import Foundation

/// RxSwift's main-thread scheduler, on a core `MainActorScheduler` (``SerialDispatchQueueScheduler/core``).
///
/// ``SerialDispatchQueueScheduler/schedule(_:action:)`` runs the action inline when called on the main
/// actor while nothing of this instance is queued or running, and queues it otherwise (so order is
/// kept), like Rx. Unlike Rx, the "queued" count is per instance (RxSwift issue #2704: Rx's
/// `MainScheduler.instance` couples unrelated callers): create one `MainScheduler()` per feature to keep
/// them apart.
///
/// Under `@Test(.virtualTime)` or `capturingAllTasks` (AsyncSchedulersTesting), work the test's code
/// schedules here runs on the test's `TestScheduler`, on its virtual clock, with the main queue held
/// (inline under the same conditions); work scheduled from outside the test stays real.
public final class MainScheduler: SerialDispatchQueueScheduler, @unchecked Sendable {
  // Why @unchecked Sendable: adds no state to its superclass.

  /// A main scheduler with its own pending count.
  public init() {
    super.init(core: MainActorScheduler(name: "rx.main", runsInlineWhenIdle: true))
  }

  /// The shared main scheduler.
  public static let instance = MainScheduler()

  /// A main scheduler that never runs inline: every action is queued on the main actor.
  public static let asyncInstance = SerialDispatchQueueScheduler(core: MainActorScheduler.shared)

  /// Stops the program (with `errorMessage`) unless the caller runs on the main actor's queue.
  public static func ensureExecutingOnScheduler(errorMessage: String? = nil) {
    checkArgument(
      MainActorScheduler.isOnMainQueue,
      errorMessage
        ?? "Executing on a background thread. Use `MainScheduler.instance.schedule` to run on the main thread.")
  }

  /// The same check as ``ensureExecutingOnScheduler(errorMessage:)``.
  public static func ensureRunningOnMainThread(errorMessage: String? = nil) {
    ensureExecutingOnScheduler(errorMessage: errorMessage)
  }
}

/// RxSwift's main scheduler for subscribing: runs the action inline whenever called on the main actor,
/// queues it on the main actor otherwise; timed work goes to ``MainScheduler/instance``.
public final class ConcurrentMainScheduler: SchedulerType {
  /// RxSwift's name for the scheduler's time interval.
  public typealias TimeInterval = Foundation.TimeInterval
  /// RxSwift's name for the scheduler's time.
  public typealias Time = Date

  private let mainScheduler: MainScheduler
  let asynchronous = CoreScheduling(core: MainActorScheduler.shared, leeway: .nanoseconds(0))

  private init(mainScheduler: MainScheduler) { self.mainScheduler = mainScheduler }

  /// The shared instance.
  public static let instance = ConcurrentMainScheduler(mainScheduler: MainScheduler.instance)

  /// The core scheduler (the shared main-actor scheduler).
  public var core: any Scheduler { asynchronous.core }

  /// The wall-clock time.
  public var now: RxTime { mainScheduler.now }

  /// Runs `action(state)` at once when on the main actor, else queues it on the main actor.
  public func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    if MainActorScheduler.isOnMainQueue { return action(state) }
    return asynchronous.schedule(state, action: action)
  }

  /// Schedules on ``MainScheduler/instance``.
  public func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    mainScheduler.scheduleRelative(state, dueTime: dueTime, action: action)
  }

  /// Schedules on ``MainScheduler/instance``.
  public func schedulePeriodic<StateType>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping (StateType) -> StateType
  ) -> any Disposable {
    mainScheduler.schedulePeriodic(state, startAfter: startAfter, period: period, action: action)
  }
}
