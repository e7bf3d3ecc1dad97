import AsyncSchedulers
import AsyncSignals
import Synchronization

extension ObservableType {
  /// Delivers every event on `scheduler`, in order (RxSwift's `observe(on:)`).
  ///
  /// On a scheduler running on a core scheduler this is the native signals' `observe(on:)`: events
  /// are queued per subscription and drained by one scheduled job at a time. Other schedulers get the
  /// same shape through their `schedule`. Disposing stops deliveries not yet made.
  @inlinable public func observe(on scheduler: some ImmediateSchedulerType) -> Observable<Element> {
    if let backed = scheduler as? any CoreBackedScheduler, backed.hopsThroughCore {
      return Observable(signal.observe(onAny: backed._nativeTarget))
    }
    // An Rx scheduler with no core (RxTest's): one scheduled action per event, as RxSwift's
    // `observe(on:)` on a scheduler that is not serial (on RxTest's, each event a tick after the last).
    let upstream = signal
    return Observable(
      Signal { observer in
        let queue = DeliveryQueue(
          observer: observer,
          jobs: .onePerEvent { job in
            _ = scheduler.schedule(()) { _ in
              job()
              return Disposables.create()
            }
          })
        return upstream.subscribe(linkedTo: observer) { queue.enqueue($0) }
      })
  }

  /// RxSwift 5's name of ``observe(on:)``, kept without RxSwift 6's deprecation warning so that
  /// migrating code builds clean; prefer `observe(on:)` in new code.
  @inlinable public func observeOn(_ scheduler: some ImmediateSchedulerType) -> Observable<Element> {
    observe(on: scheduler)
  }

  /// Subscribes (and disposes) upstream on `scheduler` (RxSwift's `subscribe(on:)`): the sequence's
  /// subscription work runs there; events arrive wherever the upstream sends them.
  ///
  /// The upstream subscription's disposal runs on `scheduler` too, as a scheduled action, whether the
  /// subscriber disposes or the sequence ends: on RxTest's `TestScheduler` a subscription made at 200
  /// and ended at 300 shows as `Subscription(201, 301)`, as in RxSwift.
  ///
  /// One implementation for every scheduler, RxSwift's: the native `subscribe(on:)` differs at the end
  /// (a native subscription releases its upstream where the end was sent).
  public func subscribe(on scheduler: some ImmediateSchedulerType) -> Observable<Element> {
    let source = RxElement(self)
    return Observable(
      Signal { observer in
        let inner = SerialDisposable()
        let scheduled = scheduler.schedule(()) { _ in
          let subscription = source.value.subscribe(AnyObserver(observer))
          inner.disposable = ScheduledDisposable(scheduler: scheduler, disposable: subscription)
          return Disposables.create()
        }
        return Disposables.create(scheduled, inner)
      })
  }

  /// RxSwift 5's name of ``subscribe(on:)``, kept without RxSwift 6's deprecation warning so that
  /// migrating code builds clean; prefer `subscribe(on:)` in new code.
  @inlinable public func subscribeOn(_ scheduler: some ImmediateSchedulerType) -> Observable<Element> {
    subscribe(on: scheduler)
  }

  /// Sends every value and the completion `dueTime` later on `scheduler`; an error is sent at once,
  /// dropping the values still waiting (RxSwift's `delay`).
  ///
  /// As in RxSwift, each event is sent by a scheduled action of its own, on `scheduler`: an event that
  /// is already due when the one before it was sent is scheduled for the time it has left, so on RxTest's
  /// scheduler a value and the completion that arrived together are sent a tick apart. Disposing cancels
  /// the action scheduled.
  public func delay(_ dueTime: RxTimeInterval, scheduler: some SchedulerType) -> Observable<Element> {
    let interval = dueTime.duration(for: "Observable.delay", "dueTime")
    let upstream = signal
    return Observable(
      Signal { observer in
        let delay = RxDelay(observer: observer, dueTime: interval, scheduler: scheduler)
        let subscription = upstream.subscribe { delay.on(Event(native: $0)) }
        return Disposables.create(subscription, delay)
      })
  }

  /// Subscribes upstream `dueTime` after the subscription, on `scheduler` (RxSwift's
  /// `delaySubscription`). Disposing before then means upstream is never subscribed.
  @inlinable public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: some SchedulerType) -> Observable<
    Element
  > {
    let api = "Observable.delaySubscription"
    let delay = dueTime.duration(for: api, "dueTime")
    let core = coreScheduler(of: scheduler, for: api)
    let upstream = signal
    return Observable(
      Signal { observer in
        let inner = SerialDisposable()
        let timer = core.schedule(after: delay, leeway: .zero) {
          inner.disposable = upstream.subscribe { observer.send($0) }
        }
        return Disposables.create(timer, inner)
      })
  }

  /// Sends a value only once `dueTime` has passed without another one; on completion a pending value
  /// is sent at once (RxSwift's `debounce`).
  @inlinable public func debounce(_ dueTime: RxTimeInterval, scheduler: some SchedulerType) -> Observable<Element> {
    let api = "Observable.debounce"
    return Observable(
      signal.debounce(for: dueTime.duration(for: api, "dueTime"), on: coreScheduler(of: scheduler, for: api)))
  }

  /// Sends the first value at once, then at most one per `dueTime`: with `latest`, the newest value of
  /// each window at its end (RxSwift's `throttle`). A value arriving exactly `dueTime` after the last one
  /// sent is sent; when the sequence completes with a value held for the end of the window, the
  /// completion waits for the window's end and follows that value, as RxSwift's.
  @inlinable public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: some SchedulerType)
    -> Observable<Element>
  {
    let api = "Observable.throttle"
    return Observable(
      signal.throttle(
        for: dueTime.duration(for: api, "dueTime"), on: coreScheduler(of: scheduler, for: api), latest: latest,
        endsAfterWindow: true))
  }

  /// Fails with `RxError.timeout` when `dueTime` passes after the subscription or a value without
  /// the next event (RxSwift's `timeout`).
  @inlinable public func timeout(_ dueTime: RxTimeInterval, scheduler: some SchedulerType) -> Observable<Element> {
    timeout(dueTime, other: Observable<Element>.error(RxError.timeout), scheduler: scheduler)
  }

  /// Switches to `other` when `dueTime` passes after the subscription or a value without the next
  /// event (RxSwift's `timeout(_:other:scheduler:)`).
  public func timeout<Source: ObservableConvertibleType>(
    _ dueTime: RxTimeInterval, other: Source, scheduler: some SchedulerType
  ) -> Observable<Element> where Source.Element == Element {
    let api = "Observable.timeout"
    let limit = dueTime.duration(for: api, "dueTime")
    let core = coreScheduler(of: scheduler, for: api)
    let upstream = signal
    let fallback = other.asObservable().signal
    return Observable(
      Signal { observer in
        let watch = TimeoutWatch(core: core, limit: limit)
        let source = SerialDisposable()
        watch.arm {
          source.disposable = fallback.subscribe { observer.send($0) }
        }
        source.disposable = upstream.subscribe(linkedTo: observer) { event in
          guard watch.pass() else { return }
          observer.send(event)
          if !event.isTerminal {
            watch.arm { source.disposable = fallback.subscribe { observer.send($0) } }
          }
        }
        return Disposables.create(watch, source)
      })
  }

  /// Sends this sequence's latest value each time `sampler` sends, if a new one came since the last
  /// sample; otherwise `defaultValue`, if given (RxSwift's `sample(_:defaultValue:)`). The sampler's
  /// completion samples once more; the sequence completes at the first sample after this sequence
  /// completed (never, if the sampler has ended before), as RxSwift's.
  @inlinable public func sample<Source: ObservableConvertibleType>(_ sampler: Source, defaultValue: Element? = nil)
    -> Observable<Element>
  {
    Observable(
      signal.sample(rxSwiftStyleOn: sampler.asObservable().signal, defaultValue: defaultValue.map(RxElement.init)))
  }

  /// Sends values for `duration` after the subscription, then completes (RxSwift's `take(for:scheduler:)`).
  @inlinable public func take(for duration: RxTimeInterval, scheduler: some SchedulerType) -> Observable<Element> {
    take(until: Observable<Int>.timer(duration, scheduler: scheduler))
  }

  /// Drops the values sent within `duration` of the subscription (RxSwift's `skip(_:scheduler:)`).
  public func skip(_ duration: RxTimeInterval, scheduler: some SchedulerType) -> Observable<Element> {
    skip(until: Observable<Int>.timer(duration, scheduler: scheduler), endsBeforeOpening: true)
  }
}

extension ObservableType where Element: RxAbstractInteger {
  /// Sends `0` after `dueTime`, then, with a `period`, `1`, `2`, … every period, on `scheduler`;
  /// without one it completes after the first value (RxSwift's `timer`). A core repeating timer: ticks
  /// a stalled scheduler missed are coalesced. A zero period, as in RxSwift, schedules each next value
  /// as soon as the previous one was sent (on RxTest's scheduler: one tick later).
  /// - Precondition: `period` is not negative.
  @inlinable public static func timer(
    _ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: some SchedulerType
  ) -> Observable<Element> {
    let api = "Observable.timer"
    let every = period.flatMap { $0.rxDuration }
    if let every {
      checkArgument(every >= .zero, "\(api): period must not be negative (got \(period!))")
      if every == .zero { return back(toBack: dueTime, on: scheduler) }
    }
    if every == nil, let due = dueTime.rxDuration, due <= .zero {
      // Due now: scheduled as the scheduler schedules immediate work (RxTest: one tick later, as RxSwift's
      // timer through `scheduleRelative`; `take(for: 0)` ends there).
      return Observable.create { observer in
        scheduler.scheduleRelative((), dueTime: dueTime) { _ in
          observer.onNext(Element.zero)
          observer.onCompleted()
          return Disposables.create()
        }
      }
    }
    let core = every == nil ? coreScheduler(of: scheduler, for: api) : periodicCore(of: scheduler, for: api)
    let delay = dueTime.duration(for: api, "dueTime")
    return Observable(
      Signal<Int, Never>.timer(after: delay, period: every, on: core).setFailureType(to: (any Error).self)
        .map { RxElement(Element($0)) })
  }

  /// `0` after `dueTime`, then `1`, `2`, … each scheduled on `scheduler` as soon as the previous one
  /// was sent: a timer with a zero period.
  @usableFromInline static func back(toBack dueTime: RxTimeInterval, on scheduler: some SchedulerType)
    -> Observable<Element>
  {
    Observable.create { observer in
      scheduler.scheduleRecursive(Element.zero, dueTime: dueTime) { value, recursion in
        observer.onNext(value)
        recursion.schedule(value &+ 1, dueTime: .seconds(0))
      }
    }
  }

  /// Sends `0`, `1`, `2`, … every `period`, the first after one period, on `scheduler` (RxSwift's
  /// `interval`).
  @inlinable public static func interval(_ period: RxTimeInterval, scheduler: some SchedulerType) -> Observable<Element>
  {
    timer(period, period: period, scheduler: scheduler)
  }
}
