import AsyncSchedulers

extension Signal {
  /// Forwards every event of this signal through `handle`, which gets the downstream observer.
  ///
  /// The building block of the operators: one upstream subscription per downstream subscription,
  /// disposed with it. `handle` runs one event at a time (the upstream observer serializes them).
  @inlinable func lift<NewElement: Sendable, NewFailure: Error>(
    _ makeHandler:
      @escaping @Sendable (SignalObserver<NewElement, NewFailure>) -> @Sendable (SignalEvent<Element, Failure>) -> Void
  ) -> Signal<NewElement, NewFailure> {
    Signal<NewElement, NewFailure> { observer in
      subscribe(linkedTo: observer, makeHandler(observer))
    }
  }

  /// Transforms each value (`-map:`, Rx `map`); the end and failures pass through.
  ///
  /// `transform` runs on the thread delivering the value, one value at a time. The operator is fused
  /// with its upstream: no subscription state of its own, so a chain of `map`, `filter` and
  /// `compactMap` costs one subscription. Memory: none.
  @inlinable public func map<NewElement: Sendable>(
    _ transform: @escaping @Sendable (Element) -> NewElement
  ) -> Signal<NewElement, Failure> {
    fuse { handler in
      { event in
        switch event {
        case .next(let value): handler(.next(transform(value)))
        case .failed(let error): handler(.failed(error))
        case .finished: handler(.finished)
        }
      }
    }
  }

  /// Keeps the values that pass `isIncluded` (`-filter:`); fused with its upstream, as ``map(_:)``.
  @inlinable public func filter(_ isIncluded: @escaping @Sendable (Element) -> Bool) -> Signal {
    fuse { handler in
      { event in
        if case .next(let value) = event, !isIncluded(value) { return }
        handler(event)
      }
    }
  }

  /// Transforms each value and drops the `nil` results (`-ignore:` with `-map:`, Rx `compactMap`);
  /// fused with its upstream, as ``map(_:)``.
  @inlinable public func compactMap<NewElement: Sendable>(
    _ transform: @escaping @Sendable (Element) -> NewElement?
  ) -> Signal<NewElement, Failure> {
    fuse { handler in
      { event in
        switch event {
        case .next(let value): if let mapped = transform(value) { handler(.next(mapped)) }
        case .failed(let error): handler(.failed(error))
        case .finished: handler(.finished)
        }
      }
    }
  }

  /// Sends each accumulated result, starting from `initial` (`-scanWithStart:reduce:`, Rx `scan`).
  /// Memory: the accumulated result.
  @inlinable public func scan<Result: Sendable>(
    _ initial: Result, _ accumulate: @escaping @Sendable (Result, Element) -> Result
  ) -> Signal<Result, Failure> {
    lift { observer in
      let accumulated = SubscriptionState(initial)
      return { event in
        switch event {
        case .next(let value):
          accumulated.value = accumulate(accumulated.value, value)
          observer.send(accumulated.value)
        case .failed(let error): observer.fail(error)
        case .finished: observer.finish()
        }
      }
    }
  }

  /// Drops values equal to the one before them (`-distinctUntilChanged`).
  /// Memory: the previous value.
  @inlinable public func distinctUntilChanged(by areEqual: @escaping @Sendable (Element, Element) -> Bool) -> Signal {
    lift { observer in
      let last = SubscriptionState<Element?>(nil)
      return { event in
        if case .next(let value) = event {
          if let previous = last.value, areEqual(previous, value) { return }
          last.value = value
        }
        observer.send(event)
      }
    }
  }

  /// Sends the first `count` values, then finishes and disposes the upstream subscription (`-take:`).
  /// Memory: a counter.
  ///
  /// - Precondition: `count >= 0`.
  @inlinable public func take(_ count: Int) -> Signal {
    checkArgument(count >= 0, "Signal.take: count must not be negative (got \(count))")
    if count == 0 { return .empty() }
    return lift { observer in
      let taken = SubscriptionState(0)
      return { event in
        observer.send(event)
        guard case .next = event else { return }
        taken.value += 1
        if taken.value == count { observer.finish() }
      }
    }
  }

  /// Drops the first `count` values (`-skip:`).
  /// Memory: a counter.
  ///
  /// - Precondition: `count >= 0`.
  @inlinable public func skip(_ count: Int) -> Signal {
    checkArgument(count >= 0, "Signal.skip: count must not be negative (got \(count))")
    return lift { observer in
      let skipped = SubscriptionState(0)
      return { event in
        if case .next = event, skipped.value < count {
          skipped.value += 1
          return
        }
        observer.send(event)
      }
    }
  }
}

extension Signal where Element: Equatable {
  /// Drops values equal to the one before them (`-distinctUntilChanged`).
  /// Memory: the previous value.
  @inlinable public func distinctUntilChanged() -> Signal { distinctUntilChanged(by: ==) }
}

extension Signal where Failure == Never {
  /// The same signal, typed as one that may fail with `Failure` (Combine's `setFailureType(to:)`,
  /// ReactiveSwift's `promoteError`), to combine it with failing signals or give it a `timeout`.
  /// Memory: none (fused with its upstream, as `map`).
  @inlinable public func setFailureType<NewFailure: Error>(to failureType: NewFailure.Type) -> Signal<
    Element, NewFailure
  > {
    fuse { handler in
      { event in
        switch event {
        case .next(let value): handler(.next(value))
        case .finished: handler(.finished)
        }
      }
    }
  }
}
