import AsyncSchedulers
import AsyncSignals

// The native signals' scheduler-taking operators, also taking RxSwift's schedulers that are not native
// schedulers, so the migration advice ("move to the native signals, keep your schedulers") compiles as
// written for every Rx scheduler. The core-backed ones (`MainScheduler`, the Dispatch queue schedulers, …)
// are native schedulers themselves and take the native operators directly: these overloads are
// disfavoured, so they serve only an Rx `SchedulerType` with no core (`VirtualTimeScheduler`,
// `HistoricalScheduler`, a custom one), seen as a native scheduler through its own scheduling
// (`SchedulerTypeCore`). A scheduler that cannot tell time (`OperationQueueScheduler`) stops the program
// with a message naming the operator.

extension Signal {
  /// The signal's events delivered on `scheduler`'s core (see the native `observe(on:)`).
  @_disfavoredOverload
  public func observe(on scheduler: some ImmediateSchedulerType) -> Signal {
    observe(on: coreScheduler(of: scheduler, for: "Signal.observe(on:)"))
  }

  /// The signal subscribed on `scheduler`'s core (see the native `subscribe(on:)`).
  @_disfavoredOverload
  public func subscribe(on scheduler: some ImmediateSchedulerType) -> Signal {
    subscribe(on: coreScheduler(of: scheduler, for: "Signal.subscribe(on:)"))
  }

  /// Each event `interval` later, on `scheduler`'s core (see the native `delay(_:on:)`).
  @_disfavoredOverload
  public func delay(_ interval: Duration, on scheduler: some ImmediateSchedulerType) -> Signal {
    delay(interval, on: coreScheduler(of: scheduler, for: "Signal.delay"))
  }

  /// A value once `interval` has passed without a newer one, on `scheduler`'s core (see the native
  /// `debounce(for:on:)`).
  @_disfavoredOverload
  public func debounce(for interval: Duration, on scheduler: some ImmediateSchedulerType) -> Signal {
    debounce(for: interval, on: coreScheduler(of: scheduler, for: "Signal.debounce"))
  }

  /// At most one value per `interval`, on `scheduler`'s core (see the native `throttle(for:on:latest:)`).
  @_disfavoredOverload
  public func throttle(for interval: Duration, on scheduler: some ImmediateSchedulerType, latest: Bool = true)
    -> Signal
  {
    throttle(for: interval, on: coreScheduler(of: scheduler, for: "Signal.throttle"), latest: latest)
  }

  /// The values of each `interval`, as arrays, on `scheduler`'s core (see the native
  /// `collect(every:on:)`).
  @_disfavoredOverload
  public func collect(every interval: Duration, on scheduler: some ImmediateSchedulerType)
    -> Signal<[Element], Failure>
  {
    collect(every: interval, on: coreScheduler(of: scheduler, for: "Signal.collect(every:)"))
  }

  /// The signal, failing with `error` when it has not finished `interval` after subscription, on
  /// `scheduler`'s core (see the native `timeout(after:on:failingWith:)`).
  @_disfavoredOverload
  public func timeout(after interval: Duration, on scheduler: some ImmediateSchedulerType, failingWith error: Failure)
    -> Signal
  {
    timeout(after: interval, on: coreScheduler(of: scheduler, for: "Signal.timeout"), failingWith: error)
  }
}

extension Signal where Failure == Never {
  /// The scheduler's `now` every `interval`, on `scheduler`'s core (see the native
  /// `interval(_:on:leeway:)`).
  @_disfavoredOverload
  public static func interval(
    _ interval: Duration, on scheduler: some ImmediateSchedulerType, leeway: Duration = .zero
  ) -> Signal<SchedulerInstant, Never> {
    Signal.interval(interval, on: coreScheduler(of: scheduler, for: "Signal.interval"), leeway: leeway)
  }

  /// `0` after `delay`, then with a `period` `1`, `2`, … on `scheduler`'s core (see the native
  /// `timer(after:period:on:)`).
  @_disfavoredOverload
  public static func timer(after delay: Duration, period: Duration? = nil, on scheduler: some ImmediateSchedulerType)
    -> Signal<Int, Never>
  {
    Signal.timer(after: delay, period: period, on: coreScheduler(of: scheduler, for: "Signal.timer"))
  }
}
