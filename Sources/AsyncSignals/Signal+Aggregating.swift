import AsyncSchedulers

extension Signal {
  /// Sends one value when this signal finishes: `accumulate` applied to every value, starting from
  /// `initial`; then finishes (RAC `-aggregateWithStart:reduce:`, Rx `reduce`, Combine `reduce`). A
  /// failure passes through and nothing is sent. `accumulate` runs on the thread sending each value;
  /// memory: one accumulated result.
  @inlinable public func reduce<Result: Sendable>(
    _ initial: Result, _ accumulate: @escaping @Sendable (Result, Element) -> Result
  ) -> Signal<Result, Failure> {
    lift { observer in
      let accumulated = SubscriptionState(initial)
      return { event in
        switch event {
        case .next(let value): accumulated.value = accumulate(accumulated.value, value)
        case .failed(let error): observer.fail(error)
        case .finished:
          observer.send(accumulated.value)
          observer.finish()
        }
      }
    }
  }

  /// Sends every value as one array when this signal finishes, then finishes (RAC `-collect`, Rx
  /// `toArray`, Combine `collect()`); an empty array if there were none. A failure passes through and
  /// nothing is sent. Memory: every value, until the end.
  @inlinable public func collect() -> Signal<[Element], Failure> {
    lift { observer in
      let values = SubscriptionState([Element]())
      return { event in
        switch event {
        case .next(let value): values.value.append(value)
        case .failed(let error): observer.fail(error)
        case .finished:
          observer.send(values.value)
          values.value = []
          observer.finish()
        }
      }
    }
  }
}
