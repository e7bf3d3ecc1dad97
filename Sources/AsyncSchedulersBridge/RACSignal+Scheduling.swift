import AsyncSchedulers
import AsyncSignals
import Foundation
import Synchronization

extension RACSignal {
  /// Forwards every event, in order, through `scheduler`, one scheduled block per event (`-deliverOn:`:
  /// on a `RACTestScheduler` each `step()` delivers one event). Events of a disposed subscription
  /// are dropped when their block runs. For bursts, the native `observe(on:)` costs one job per burst.
  public func deliver(on scheduler: RACScheduler) -> RACSignal<Value> {
    let upstream = native
    let core = scheduler.core
    return RACSignal(Signal { observer in upstream.subscribe { event in core.execute { observer.send(event) } } })
  }

  /// Forwards every event to the main queue (`-deliverOnMainThread`): an event sent on the main queue
  /// while none of this subscription's events waits for it is delivered at once, synchronously, as in
  /// ReactiveObjC; any other goes through the main queue, in order.
  public func deliverOnMainThread() -> RACSignal<Value> {
    let upstream = native
    let main = RACScheduler.mainThread().core
    return RACSignal(
      Signal { observer in
        // The events of this subscription sent but not yet delivered.
        let waiting = MainThreadBacklog()
        return upstream.subscribe { event in
          if waiting.count.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue == 1
            && MainActorScheduler.isOnMainQueue
          {
            observer.send(event)
            waiting.count.wrappingSubtract(1, ordering: .acquiringAndReleasing)
          } else {
            main.execute {
              observer.send(event)
              waiting.count.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            }
          }
        }
      })
  }

  /// Subscribes, and disposes, on `scheduler` (`-subscribeOn:`).
  public func subscribe(on scheduler: RACScheduler) -> RACSignal<Value> {
    RACSignal(native.subscribe(on: scheduler.core))
  }

  /// Sends values and completion `interval` seconds later; errors at once (`-delay:`). As in
  /// ReactiveObjC, each event is timed on the scheduler current when it arrives (so a
  /// `RACTestScheduler` controls the values sent from its blocks), or, where none is, on a background
  /// scheduler made for the subscription.
  /// - Precondition: `interval` is finite and not negative.
  public func delay(_ interval: TimeInterval) -> RACSignal<Value> {
    let delay = Self.duration(interval, "delay:")
    let upstream = native
    return RACSignal(
      Signal { observer in
        let fallback = RACScheduler()
        let timers = CompositeDisposable()
        let subscription = upstream.subscribe { event in
          if case .failed = event {
            timers.dispose()
            observer.send(event)
            return
          }
          // On the scheduler's own clock (a RACTestScheduler's virtual one), not through dates. A
          // fired timer leaves the composite, so a long signal does not accumulate handles.
          let scheduler = (RACScheduler.current() ?? fallback).core
          let entry = DelayedEventEntry()
          entry.attach(
            timers.add(
              scheduler.schedule(after: delay) {
                observer.send(event)
                entry.fired()
              }))

        }
        return CompositeDisposable([subscription, timers])
      })
  }

  /// Sends a value only after `interval` seconds without another (`-throttle:`; RAC's throttle is a
  /// debounce); a pending value is sent at once when the signal completes.
  /// - Precondition: `interval` is finite and not negative.
  public func throttle(_ interval: TimeInterval) -> RACSignal<Value> { throttle(interval) { _ in true } }

  /// Throttles the values that pass `predicate`; others are sent at once, dropping a pending value
  /// (`-throttle:valuesPassingTest:`). Each value is timed on the scheduler current when it arrives.
  /// - Precondition: `interval` is finite and not negative.
  public func throttle(
    _ interval: TimeInterval, valuesPassingTest predicate: @escaping @Sendable (Value?) -> Bool
  ) -> RACSignal<Value> {
    let quiet = Self.duration(interval, "throttle:")
    let upstream = native
    return RACSignal(
      Signal { observer in
        // Each value is timed on the scheduler current when it arrives, as in ReactiveObjC, or on a
        // background scheduler made for the subscription.
        let fallback = RACScheduler()
        return upstream.debounce(
          for: quiet, pickingSchedulerPerValue: { (RACScheduler.current() ?? fallback).core },
          valuesPassingTest: predicate
        ).subscribe(observer.send)
      })
  }

  /// Collects values into an array sent `interval` seconds after the first of each batch, on
  /// `scheduler` (`-bufferWithTime:onScheduler:`; an array instead of a `RACTuple`).
  /// - Precondition: `interval` is finite and not negative.
  public func buffer(withTime interval: TimeInterval, on scheduler: RACScheduler) -> RACSignal<[Value?]> {
    RACSignal<[Value?]>(
      native.collect(every: Self.duration(interval, "bufferWithTime:"), on: scheduler.core).map { $0 })
  }

  /// Sends an error (domain ``RACSignalErrorDomain``, code ``RACSignalErrorTimedOut``) unless the
  /// signal completes within `interval` seconds, timed on `scheduler` (`-timeout:onScheduler:`).
  /// - Precondition: `interval` is finite and not negative.
  public func timeout(_ interval: TimeInterval, on scheduler: RACScheduler) -> RACSignal<Value> {
    let error = NSError(domain: RACSignalErrorDomain, code: RACSignalErrorTimedOut, userInfo: nil)
    return RACSignal(native.timeout(after: Self.duration(interval, "timeout:"), on: scheduler.core, failingWith: error))
  }

  /// The date every `interval` seconds, on `scheduler` (`+interval:onScheduler:`).
  /// - Precondition: `interval > 0` and finite.
  public class func interval(_ interval: TimeInterval, on scheduler: RACScheduler) -> RACSignal<Date> {
    self.interval(interval, on: scheduler, withLeeway: 0)
  }

  /// The date every `interval` seconds, on `scheduler`, with `leeway` (`+interval:onScheduler:withLeeway:`).
  /// - Precondition: `interval > 0` and finite; `leeway >= 0` and finite.
  public class func interval(
    _ interval: TimeInterval, on scheduler: RACScheduler, withLeeway leeway: TimeInterval
  ) -> RACSignal<Date> {
    checkArgument(interval > 0, "interval:onScheduler: interval must be greater than 0 (got \(interval))")
    let every = duration(interval, "interval:onScheduler:")
    let slack = duration(leeway, "interval:onScheduler:withLeeway:")
    return RACSignal<Date>(
      Signal<SchedulerInstant, Never>.interval(every, on: scheduler.core, leeway: slack)
        .map { instant -> Date? in scheduler.date(for: instant) }
        .setFailureType(to: (any Error).self))
  }

  /// A signal whose `block` runs once on `scheduler` at the first subscription; every subscriber gets
  /// all it sent (`+startLazilyWithScheduler:block:`).
  public class func startLazily(
    with scheduler: RACScheduler, block: @escaping @Sendable (any RACSubscriber) -> Void
  ) -> RACSignal<Value> {
    RACSignal(.startLazily(on: scheduler.core) { observer in block(RACObserverSubscriber<Value>(observer)) })
  }

  /// A signal whose `block` starts now on `scheduler`; every subscriber gets all it sent
  /// (`+startEagerlyWithScheduler:block:`).
  public class func startEagerly(
    with scheduler: RACScheduler, block: @escaping @Sendable (any RACSubscriber) -> Void
  ) -> RACSignal<Value> {
    RACSignal(.startEagerly(on: scheduler.core) { observer in block(RACObserverSubscriber<Value>(observer)) })
  }

  /// `seconds` as a duration, with RAC's checks and a message naming the operator.
  static func duration(_ seconds: TimeInterval, _ name: String) -> Duration {
    checkArgument(seconds >= 0 && seconds.isFinite, "\(name) interval must be finite and not negative (got \(seconds))")
    return .seconds(min(seconds, 1e15))
  }
}

/// How many events of one `deliverOnMainThread()` subscription are sent but not yet delivered.
final class MainThreadBacklog: Sendable {
  let count = Atomic<Int>(0)
}

/// One delayed event's place in its subscription's timers: removed once the event is sent, whichever
/// of the firing and the registration comes first.
final class DelayedEventEntry: Sendable {
  private let state = Mutex<(handle: CompositeDisposable.Handle?, fired: Bool)>((nil, false))

  /// The timer's place; removed at once if it already fired.
  func attach(_ handle: CompositeDisposable.Handle) {
    let remove = state.withCriticalRegion { state -> Bool in
      if state.fired { return true }
      state.handle = handle
      return false
    }
    if remove { handle.dispose() }
  }

  /// The event was sent: the timer leaves the composite.
  func fired() {
    let handle = state.withCriticalRegion { state -> CompositeDisposable.Handle? in
      state.fired = true
      defer { state.handle = nil }
      return state.handle
    }
    handle?.dispose()
  }
}
