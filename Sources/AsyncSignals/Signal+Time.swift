import AsyncSchedulers
import Synchronization

extension Signal {
  /// Sends every value and the end `interval` later, on `scheduler` (`-delay:`, Rx `delay`); a failure
  /// is sent at once, dropping the values still waiting (as ReactiveCocoa).
  ///
  /// One timer at a time is pending per subscription; disposing cancels it.
  /// Memory: the events in flight (one timer).
  ///
  /// - Precondition: `interval >= .zero`.
  @inlinable public func delay(_ interval: Duration, on scheduler: some Scheduler) -> Signal {
    checkArgument(interval >= .zero, "Signal.delay: interval must not be negative (got \(interval))")
    return Signal { observer in
      let timeline = DelayStorage(observer: observer, scheduler: scheduler)
      let subscription = subscribe { event in
        if case .failed = event {
          timeline.failNow(event)
        } else {
          timeline.add(event, at: scheduler.now.advanced(by: interval))
        }
      }
      return CompositeDisposable([subscription, timeline.timer])
    }
  }

  /// Sends a value only once `interval` has passed without another value; the newest value wins
  /// (Rx `debounce`, ReactiveCocoa's `-throttle:`, ReactiveSwift `debounce`).
  ///
  /// When the signal finishes while a value is pending, that value is sent at once, then the end (as
  /// RxSwift and swift-async-algorithms do); a failure drops it. A value arriving at the very instant
  /// the pending one falls due comes after it (the pending value is sent first). Timers run on
  /// `scheduler`; disposing cancels the pending one.
  /// Memory: one value and one timer.
  ///
  /// - Precondition: `interval >= .zero`.
  @inlinable public func debounce(for interval: Duration, on scheduler: some Scheduler) -> Signal {
    debounce(for: interval, on: scheduler) { _ in true }
  }

  /// Debounces the values that pass `shouldDebounce`; the others are sent at once, and a pending value
  /// is dropped (ReactiveCocoa's `-throttle:valuesPassingTest:`). See ``debounce(for:on:)``.
  /// Memory: one value and one timer.
  ///
  /// - Precondition: `interval >= .zero`.
  @inlinable public func debounce(
    for interval: Duration, on scheduler: some Scheduler,
    valuesPassingTest shouldDebounce: @escaping @Sendable (Element) -> Bool
  ) -> Signal {
    checkArgument(interval >= .zero, "Signal.debounce: interval must not be negative (got \(interval))")
    return debouncing(for: interval, scheduler: { scheduler }, valuesPassingTest: shouldDebounce)
  }

  /// `debounce` whose timer scheduler is picked by `scheduler` for each value, when it arrives (the RAC
  /// bridge's `-throttle:`: ReactiveObjC times each value on the scheduler current then).
  package func debounce(
    for interval: Duration, pickingSchedulerPerValue scheduler: @escaping @Sendable () -> any Scheduler,
    valuesPassingTest shouldDebounce: @escaping @Sendable (Element) -> Bool
  ) -> Signal {
    checkArgument(interval >= .zero, "Signal.debounce: interval must not be negative (got \(interval))")
    return debouncing(for: interval, scheduler: scheduler, valuesPassingTest: shouldDebounce)
  }

  @inlinable func debouncing(
    for interval: Duration, scheduler pick: @escaping @Sendable () -> any Scheduler,
    valuesPassingTest shouldDebounce: @escaping @Sendable (Element) -> Bool
  ) -> Signal {
    Signal { observer in
      let pending = DebounceStorage<Element, Failure>(observer: observer)
      let subscription = subscribe { event in
        switch event {
        case .next(let value) where shouldDebounce(value):
          let scheduler = pick()
          let now = scheduler.now
          let due = now.advanced(by: interval)
          pending.replace(value, now: now, due: due) { fire in scheduler.schedule(at: due, leeway: .zero, fire) }
        case .next(let value):
          pending.sendNow(value)
        case .finished, .failed:
          pending.end(event)
        }
      }
      return CompositeDisposable([subscription, AnyDisposable { pending.drop() }])
    }
  }

  /// Sends the first value at once, then at most one value per `interval`: values arriving within the
  /// interval are dropped, or, with `latest`, the newest of them is sent when the interval ends (Rx
  /// `throttle(_:latest:scheduler:)`, ReactiveSwift `throttle`).
  ///
  /// When the signal finishes, a value held for the end of the interval is sent at once, then the end.
  /// A value arriving exactly when its window's interval is up opens the next window (it is sent), also
  /// when the window's timer, due at the same instant, has not run yet.
  /// Memory: one value and one timer.
  ///
  /// - Precondition: `interval >= .zero`.
  @inlinable public func throttle(for interval: Duration, on scheduler: some Scheduler, latest: Bool = true) -> Signal {
    throttle(for: interval, on: scheduler, latest: latest, endsAfterWindow: false)
  }

  /// `throttle` with the choice of how a finish with a value held ends: at once, after that value (the
  /// public operator), or, with `endsAfterWindow`, when the window ends, after that value (RxSwift's
  /// rule, the Rx bridge's `throttle`).
  @inlinable package func throttle(
    for interval: Duration, on scheduler: some Scheduler, latest: Bool, endsAfterWindow: Bool
  ) -> Signal {
    checkArgument(interval >= .zero, "Signal.throttle: interval must not be negative (got \(interval))")
    return Signal { observer in
      let throttle = ThrottleStorage<Element, Failure>(
        observer: observer, interval: interval, now: { scheduler.now }, endsAfterWindow: endsAfterWindow)
      let subscription = subscribe { event in
        switch event {
        case .next(let value):
          throttle.received(value, latest: latest) { fire in scheduler.schedule(after: interval, fire) }
        case .finished, .failed:
          throttle.end(event)
        }
      }
      return CompositeDisposable([subscription, AnyDisposable { throttle.drop() }])
    }
  }

  /// Collects values and sends them as an array `interval` after the first value of each batch
  /// (ReactiveCocoa `-bufferWithTime:onScheduler:`, Rx `buffer(timeSpan:)` without empty batches).
  ///
  /// When the signal finishes, a batch being collected is sent at once, then the end; a failure drops
  /// it. Timers run on `scheduler`.
  /// Memory: the open batch and one timer.
  ///
  /// - Precondition: `interval >= .zero`.
  @inlinable public func collect(every interval: Duration, on scheduler: some Scheduler) -> Signal<[Element], Failure> {
    checkArgument(interval >= .zero, "Signal.collect(every:): interval must not be negative (got \(interval))")
    return Signal<[Element], Failure> { observer in
      let batch = CollectStorage<Element, Failure>(observer: observer)
      let subscription = subscribe { event in
        switch event {
        case .next(let value):
          batch.add(value) { fire in scheduler.schedule(after: interval, fire) }
        case .finished:
          batch.end(.finished)
        case .failed(let error):
          batch.end(.failed(error))
        }
      }
      return CompositeDisposable([subscription, AnyDisposable { batch.drop() }])
    }
  }

  /// Fails with `error` unless the signal ends within `interval` of the subscription (ReactiveCocoa
  /// `-timeout:onScheduler:`: a limit on the whole signal, not between values). On time-out the
  /// upstream subscription is disposed.
  /// Memory: one timer.
  ///
  /// - Precondition: `interval >= .zero`.
  @inlinable public func timeout(after interval: Duration, on scheduler: some Scheduler, failingWith error: Failure)
    -> Signal
  {
    checkArgument(interval >= .zero, "Signal.timeout: interval must not be negative (got \(interval))")
    return Signal { observer in
      let timer = scheduler.schedule(after: interval) { observer.fail(error) }
      let subscription = subscribe(observer.send)
      return CompositeDisposable([timer, subscription])
    }
  }
}

extension Signal where Failure == Never {
  /// Sends the scheduler's time every `interval`, on `scheduler`, anchored to the subscription (no
  /// drift; ticks missed while the scheduler was busy are coalesced), never finishing
  /// (`+[RACSignal interval:onScheduler:withLeeway:]`, Rx `Observable.interval`).
  ///
  /// Each value is the scheduler's `now` when the tick runs. `leeway` lets the system fire up to that
  /// much late to save power. Disposing stops the timer.
  /// Memory: one repeating timer.
  ///
  /// - Precondition: `interval > .zero`, `leeway >= .zero`.
  @inlinable public static func interval(
    _ interval: Duration, on scheduler: some Scheduler, leeway: Duration = .zero
  ) -> Signal<SchedulerInstant, Never> {
    checkArgument(interval > .zero, "Signal.interval: interval must be greater than zero (got \(interval))")
    checkArgument(leeway >= .zero, "Signal.interval: leeway must not be negative (got \(leeway))")
    return Signal<SchedulerInstant, Never> { observer in
      scheduler.scheduleRepeating(every: interval, leeway: leeway) { observer.send(scheduler.now) }
    }
  }

  /// Sends `0` after `delay`, then, with a `period`, `1`, `2`, … every period, on `scheduler`; without
  /// a period it finishes after the first value (Rx `Observable.timer(_:period:scheduler:)`).
  /// Memory: one timer.
  ///
  /// - Precondition: `delay >= .zero`; `period > .zero` when given.
  @inlinable public static func timer(
    after delay: Duration, period: Duration? = nil, on scheduler: some Scheduler
  ) -> Signal<Int, Never> {
    checkArgument(delay >= .zero, "Signal.timer: delay must not be negative (got \(delay))")
    if let period { checkArgument(period > .zero, "Signal.timer: period must be greater than zero (got \(period))") }
    return Signal<Int, Never> { observer in
      guard let period else {
        return scheduler.schedule(after: delay) {
          observer.send(0)
          observer.finish()
        }
      }
      let count = SubscriptionState(0)
      // The timer's runs never overlap (one repeating timer), so the counter needs no lock.
      return scheduler.scheduleRepeating(startingAt: scheduler.now.advanced(by: delay), every: period, leeway: .zero) {
        observer.send(count.value)
        count.value += 1
      }
    }
  }
}
