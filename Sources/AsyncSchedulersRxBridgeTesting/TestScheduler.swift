import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTesting
import Foundation

/// RxTest's virtual-time scheduler on the core's virtual time: a `SchedulerType` whose clock counts
/// ticks (`TestTime`), running on an `AsyncSchedulersTesting.TestScheduler` (``core``), so the bridge's
/// timed operators (`delay`, `debounce`, `timer`, …) use the same engine as native virtual-time tests.
///
/// A file that imports both this module and `AsyncSchedulersTesting` names the type it means:
/// `AsyncSchedulersRxBridgeTesting.TestScheduler` (RxTest's) or `AsyncSchedulersTesting.TestScheduler`.
///
/// As in RxTest, work scheduled for the current tick or earlier through this scheduler (`schedule`, a
/// zero `scheduleRelative`, `observe(on:)`, `subscribe(on:)`) runs one tick later when
/// `simulateProcessingDelay` is on. Actions run on the thread driving the scheduler (``start()``,
/// ``advanceTo(_:)``), one at a time.
public final class TestScheduler: SchedulerType, CoreBackedScheduler, Sendable {
  /// The core virtual-time scheduler the ticks run on (one tick is `resolution` seconds of its time).
  public let core: AsyncSchedulersTesting.TestScheduler
  private let resolution: Double
  private let simulateProcessingDelay: Bool

  /// A scheduler whose clock starts at `initialClock` ticks, each tick `resolution` seconds of virtual
  /// time (for `RxTimeInterval` conversions).
  /// - Precondition: `resolution` is positive and finite.
  public init(initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
    guard resolution > 0, resolution.isFinite else {
      fatalError("TestScheduler(initialClock:resolution:): resolution must be positive and finite (got \(resolution))")
    }
    self.resolution = resolution
    self.simulateProcessingDelay = simulateProcessingDelay
    core = AsyncSchedulersTesting.TestScheduler(
      name: "RxTest.TestScheduler", now: SchedulerInstant.zero.advanced(by: .seconds(Double(initialClock) * resolution))
    )
  }

  /// The core virtual-time scheduler, where the native members (``now`` as an instant, `schedule`,
  /// `sleep`, task jobs) go: the seam of `_RxCoreBackedScheduler`.
  public var _nativeTarget: any Scheduler { core }
  @usableFromInline package var hopsThroughCore: Bool { false }

  /// The current virtual time, in ticks.
  public var clock: TestTime { ticks(core.now.offset) }

  /// The current virtual time as a date (`clock × resolution` seconds after 1970).
  public var now: RxTime { Date(timeIntervalSince1970: Double(clock) * resolution) }

  private func ticks(_ duration: Duration) -> TestTime {
    let (seconds, attoseconds) = duration.components
    return TestTime(((Double(seconds) + Double(attoseconds) / 1e18) / resolution).rounded())
  }

  private func instant(_ time: TestTime) -> SchedulerInstant {
    SchedulerInstant.zero.advanced(by: .seconds(Double(time) * resolution))
  }

  /// Schedules `action(state)` at the current tick (the next one with the processing delay).
  public func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    scheduleAbsoluteVirtual(state, time: adjusted(clock), action: action)
  }

  /// Schedules `action(state)` `dueTime` from now, converted to ticks (the next tick with the processing
  /// delay when that is not later than now); `.never` never runs.
  public func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    guard let seconds = dueTime.seconds else { return Disposables.create() }
    return scheduleAbsoluteVirtual(
      state, time: adjusted(clock + TestTime((seconds / resolution).rounded())), action: action)
  }

  /// Schedules `action(state)` `dueTime` ticks from now.
  public func scheduleRelativeVirtual<StateType>(
    _ state: StateType, dueTime: TestTime, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    scheduleAbsoluteVirtual(state, time: clock + dueTime, action: action)
  }

  /// Schedules `action(state)` at tick `time`, as given (a tick already past runs at the current one).
  /// Only the scheduler calls (`schedule`, `scheduleRelative`) add the processing delay, as in RxTest:
  /// `scheduleAt(0)` and `start(created: 0, subscribed: 0, …)` run at tick 0.
  public func scheduleAbsoluteVirtual<StateType>(
    _ state: StateType, time: TestTime, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    let due = max(time, clock)
    let result = SerialDisposable()
    // Carried as given (no wrapping closure): the action runs once, on the thread that drives.
    let action = RxClosure(action)
    let state = RxElement(state)
    let timer = core.schedule(at: instant(due), leeway: .zero) { result.disposable = action.function(state.value) }
    return Disposables.create(timer, result)
  }

  /// RxTest's `adjustScheduledTime`: a time not later than the current tick becomes the next tick when
  /// the processing delay is on (the current one otherwise).
  private func adjusted(_ time: TestTime) -> TestTime {
    time <= clock ? clock + (simulateProcessingDelay ? 1 : 0) : time
  }

  /// Runs `action` at tick `time` (RxTest's `scheduleAt`).
  /// `action` runs on the thread that drives the scheduler; it need not be `Sendable`, as in RxTest.
  public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) {
    let action = rxClosure(action)
    _ = scheduleAbsoluteVirtual((), time: time) { _ in
      action()
      return Disposables.create()
    }
  }

  /// Runs everything scheduled, moving the clock to each due time, until nothing is left.
  public func start() { core.run() }

  /// Runs what is due up to tick `time` and leaves the clock there.
  public func advanceTo(_ time: TestTime) { core.advance(to: instant(time)) }

  /// A hot observable sending `events` at their ticks to whoever is subscribed then.
  public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>])
    -> TestableObservable<Element>
  {
    TestableObservable(scheduler: self, events: events, hot: true)
  }

  /// A cold observable sending `events` to each subscriber, their ticks counted from its subscription.
  public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>])
    -> TestableObservable<Element>
  {
    TestableObservable(scheduler: self, events: events, hot: false)
  }

  /// An observer recording the events it receives with their ticks.
  public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
    TestableObserver(scheduler: self)
  }

  /// Creates the sequence at `created` (an observable, or a trait: `Single`, `Maybe`, `Completable`,
  /// `Infallible`), subscribes a recording observer at `subscribed`, disposes it at `disposed`, runs
  /// everything, and returns the observer (RxTest's `start`).
  public func start<OutputSequence: ObservableConvertibleType>(
    created: TestTime, subscribed: TestTime, disposed: TestTime,
    create: @escaping () -> OutputSequence
  ) -> TestableObserver<OutputSequence.Element> {
    let create = rxClosure(create)
    let observer = createObserver(OutputSequence.Element.self)
    let source = Holder<Observable<OutputSequence.Element>>()
    let subscription = Holder<any Disposable>()
    scheduleAt(created) { source.value = create().asObservable() }
    scheduleAt(subscribed) { subscription.value = source.value?.subscribe(observer) }
    scheduleAt(disposed) { subscription.value?.dispose() }
    start()
    return observer
  }

  /// `start` with creation at 100 and subscription at 200, as RxTest.
  public func start<OutputSequence: ObservableConvertibleType>(
    disposed: TestTime, create: @escaping () -> OutputSequence
  ) -> TestableObserver<OutputSequence.Element> {
    start(created: 100, subscribed: 200, disposed: disposed, create: create)
  }

  /// `start` with creation at 100, subscription at 200 and disposal at 1000, as RxTest.
  public func start<OutputSequence: ObservableConvertibleType>(_ create: @escaping () -> OutputSequence)
    -> TestableObserver<OutputSequence.Element>
  {
    start(created: 100, subscribed: 200, disposed: 1000, create: create)
  }
}

/// A value set by one scheduled action and read by a later one (the scheduler runs them one at a time,
/// in order, on the driving thread).
private final class Holder<Value>: @unchecked Sendable {
  // Why @unchecked Sendable: only the actions of one TestScheduler touch it, and the scheduler runs them
  // one after another on the thread driving it, each ordered after the previous by the scheduler's lock.
  var value: Value?
}

extension DispatchTimeInterval {
  /// The interval in seconds, `nil` for `.never`.
  fileprivate var seconds: Double? {
    switch self {
    case .seconds(let value): Double(value)
    case .milliseconds(let value): Double(value) / 1e3
    case .microseconds(let value): Double(value) / 1e6
    case .nanoseconds(let value): Double(value) / 1e9
    case .never: nil
    @unknown default: nil
    }
  }
}
