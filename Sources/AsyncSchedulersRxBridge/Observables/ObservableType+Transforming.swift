import AsyncSchedulers
import AsyncSignals

extension ObservableType {
  /// Sends each value transformed by `transform`; an error it throws fails the sequence.
  ///
  /// `transform` runs on the thread delivering the value, one value at a time.
  @inlinable public func map<Result>(_ transform: @escaping (Element) throws -> Result)
    -> Observable<Result>
  {
    let transform = rxClosure(transform)
    return stage { value, send in send(try transform(value)) }
  }

  /// Sends the non-`nil` results of `transform`; an error it throws fails the sequence.
  @inlinable public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?)
    -> Observable<Result>
  {
    let transform = rxClosure(transform)
    return stage { value, send in
      if let result = try transform(value) { send(result) }
    }
  }

  /// Sends the values that pass `predicate`; an error it throws fails the sequence.
  @inlinable public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
    let predicate = rxClosure(predicate)
    return stage { value, send in
      if try predicate(value) { send(value) }
    }
  }

  /// Sends each value with its index, from zero, per subscription.
  @inlinable public func enumerated() -> Observable<(index: Int, element: Element)> {
    lift {
      let next = SubscriptionState(0)
      return { event, observer in
        switch event {
        case .next(let value):
          observer.send((index: next.value, element: value))
          next.value += 1
        case .error(let error): observer.fail(error)
        case .completed: observer.finish()
        }
      }
    }
  }

  /// Sends each running result of `accumulator`, starting from `seed` for each subscription.
  @inlinable public func scan<Accumulate>(
    _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate
  ) -> Observable<Accumulate> {
    let accumulator = rxClosure(accumulator)
    let seed = RxElement(seed)
    return lift {
      let state = SubscriptionState(seed.value)
      return { event, observer in
        switch event {
        case .next(let value):
          state.value = try accumulator(state.value, value)
          observer.send(state.value)
        case .error(let error): observer.fail(error)
        case .completed: observer.finish()
        }
      }
    }
  }

  /// Sends each running result of `accumulator`, which updates the accumulated value in place.
  @inlinable public func scan<Accumulate>(
    into seed: Accumulate, accumulator: @escaping (inout Accumulate, Element) throws -> Void
  ) -> Observable<Accumulate> {
    let accumulator = rxClosure(accumulator)
    return scan(seed) { accumulated, value in
      var result = accumulated
      try accumulator(&result, value)
      return result
    }
  }

  /// Sends, when the sequence completes, the result of folding its values with `accumulator` from
  /// `seed`, transformed by `mapResult`.
  @inlinable public func reduce<Accumulate, Result>(
    _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate,
    mapResult: @escaping (Accumulate) throws -> Result
  ) -> Observable<Result> {
    let accumulator = rxClosure(accumulator)
    let mapResult = rxClosure(mapResult)
    let seed = RxElement(seed)
    return lift {
      let state = SubscriptionState(seed.value)
      return { event, observer in
        switch event {
        case .next(let value): state.value = try accumulator(state.value, value)
        case .error(let error): observer.fail(error)
        case .completed:
          observer.send(try mapResult(state.value))
          observer.finish()
        }
      }
    }
  }

  /// Sends, when the sequence completes, the result of folding its values with `accumulator`.
  @inlinable public func reduce<Accumulate>(
    _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) throws -> Accumulate
  ) -> Observable<Accumulate> {
    return reduce(seed, accumulator: accumulator, mapResult: { $0 })
  }

  /// Sends every value consecutive-duplicate-free, comparing the keys `keySelector` makes with
  /// `comparer`; an error either throws fails the sequence.
  @inlinable public func distinctUntilChanged<Key>(
    _ keySelector: @escaping (Element) throws -> Key,
    comparer: @escaping (Key, Key) throws -> Bool
  ) -> Observable<Element> {
    let keySelector = rxClosure(keySelector)
    let comparer = rxClosure(comparer)
    return lift {
      let last = SubscriptionState<Key?>(nil)
      return { event, observer in
        switch event {
        case .next(let value):
          let key = try keySelector(value)
          if let previous = last.value, try comparer(previous, key) { return }
          last.value = key
          observer.send(value)
        case .error(let error): observer.fail(error)
        case .completed: observer.finish()
        }
      }
    }
  }

  /// Drops values equal, by `comparer`, to the value before them.
  @inlinable public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool)
    -> Observable<Element>
  {
    return distinctUntilChanged({ $0 }, comparer: comparer)
  }

  /// Drops values whose key, by `keySelector`, equals the key of the value before them.
  @inlinable public func distinctUntilChanged<Key: Equatable>(
    _ keySelector: @escaping (Element) throws -> Key
  )
    -> Observable<Element>
  {
    return distinctUntilChanged(keySelector, comparer: { $0 == $1 })
  }

  /// Sends `elements` first, then this sequence's values.
  @inlinable public func startWith(_ elements: Element...) -> Observable<Element> {
    Observable(signal.prepend(contentsOf: elements.map(RxElement.init)))
  }

  /// Sends each event as a value, then completes (RxSwift's `materialize`).
  @inlinable public func materialize() -> Observable<Event<Element>> {
    lift {
      { event, observer in
        observer.send(event)
        if event.isStopEvent { observer.finish() }
      }
    }
  }

  /// Sends nothing but the end: the values are dropped (RxSwift 6's `ignoreElements`).
  @inlinable public func ignoreElements() -> Observable<Never> {
    liftValues { _, _ in }
  }

  /// Calls the closures at each event, before (`on…`) or after (`after…`) sending it, and at
  /// subscription and disposal (RxSwift's `do`). An error an `on…` closure throws fails the sequence.
  ///
  /// The event closures run on the delivering thread; `onSubscribe` before subscribing upstream,
  /// `onSubscribed` after, on the subscribing thread; `onDispose` once, when the subscription ends.
  @inlinable public func `do`(
    onNext: ((Element) throws -> Void)? = nil, afterNext: ((Element) throws -> Void)? = nil,
    onError: ((any Swift.Error) throws -> Void)? = nil,
    afterError: ((any Swift.Error) throws -> Void)? = nil,
    onCompleted: (() throws -> Void)? = nil, afterCompleted: (() throws -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil
  ) -> Observable<Element> {
    let onNext = rxClosure(onNext)
    let afterNext = rxClosure(afterNext)
    let onError = rxClosure(onError)
    let afterError = rxClosure(afterError)
    let onCompleted = rxClosure(onCompleted)
    let afterCompleted = rxClosure(afterCompleted)
    let onSubscribe = rxClosure(onSubscribe)
    let onSubscribed = rxClosure(onSubscribed)
    let onDispose = rxClosure(onDispose)
    let upstream = signal
    return Observable(
      Signal { observer in
        onSubscribe?()
        let subscription = upstream.subscribe(linkedTo: observer) { event in
          do {
            switch event {
            case .next(let value):
              try onNext?(value.value)
              observer.send(value)
              try afterNext?(value.value)
            case .failed(let error):
              try onError?(error)
              observer.fail(error)
              try afterError?(error)
            case .finished:
              try onCompleted?()
              observer.finish()
              try afterCompleted?()
            }
          } catch {
            observer.fail(error)
          }
        }
        onSubscribed?()
        guard let onDispose else { return subscription }
        return Disposables.create(subscription, Disposables.create(with: onDispose))
      })
  }

  /// Prints every event, subscription and disposal with `identifier` (RxSwift's `debug`).
  @inlinable public func debug(_ identifier: String? = nil, trimOutput: Bool = false) -> Observable<Element> {
    let name = identifier ?? "Observable<\(Element.self)>"
    @Sendable func log(_ text: String) {
      let line = trimOutput && text.count > 40 ? String(text.prefix(40)) + "..." : text
      print("\(name) -> \(line)")
    }
    return self.do(
      onNext: { log("Event next(\($0))") }, onError: { log("Event error(\($0))") },
      onCompleted: { log("Event completed") }, onSubscribe: { log("subscribed") },
      onDispose: { log("isDisposed") })
  }
}

extension ObservableType where Element: Equatable {
  /// Drops values equal to the value before them.
  @inlinable public func distinctUntilChanged() -> Observable<Element> { Observable(signal.distinctUntilChanged()) }
}

extension ObservableType {
  /// Turns values that are events back into a sequence (RxSwift's `dematerialize`).
  @inlinable public func dematerialize<Value>() -> Observable<Value> where Element == Event<Value> {
    liftValues { event, observer in observer.send(event.signalEvent) }
  }
}
