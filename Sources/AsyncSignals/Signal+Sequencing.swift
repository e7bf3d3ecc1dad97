import AsyncSchedulers

extension Signal {
  /// Sends `values` first, at subscription, on the subscribing thread, then this signal's events
  /// (Rx `startWith`, RAC `-startWith:`, Combine `prepend`). Holds `values` for the signal's lifetime.
  @inlinable public func prepend(_ values: Element...) -> Signal { prepend(contentsOf: values) }

  /// Sends `values` first, at subscription, on the subscribing thread, then this signal's events. If
  /// the subscriber disposes while the values are sent, this signal is never subscribed. Memory:
  /// `values`, for the signal's lifetime.
  @inlinable public func prepend(contentsOf values: [Element]) -> Signal {
    Signal { observer in
      for value in values { observer.send(value) }
      return observer.isTerminated ? nil : subscribe(observer.send)
    }
  }

  /// Sends the first value, then finishes and disposes this signal's subscription (Rx `take(1)`,
  /// Combine `first()`); a signal that ends without a value ends the same way (finishing or failing).
  /// Memory: none.
  @inlinable public func first() -> Signal { take(1) }

  /// Sends the first value that passes `predicate`, then finishes (Combine `first(where:)`).
  /// `predicate` runs on the thread sending each value, one value at a time. The end and failures
  /// before a match pass through. Memory: none.
  @inlinable public func first(where predicate: @escaping @Sendable (Element) -> Bool) -> Signal {
    filter(predicate).take(1)
  }

  /// Sends values while `predicate` holds; at the first that fails it, finishes and disposes this
  /// signal's subscription (Rx `takeWhile`, RAC `-takeWhileBlock:`, Combine `prefix(while:)`).
  /// `predicate` runs on the thread sending each value; failures and the end pass through. Memory:
  /// none.
  @inlinable public func prefix(while predicate: @escaping @Sendable (Element) -> Bool) -> Signal {
    lift { observer in
      { event in
        if case .next(let value) = event, !predicate(value) {
          observer.finish()
          return
        }
        observer.send(event)
      }
    }
  }

  /// Drops values while `predicate` holds, then sends every value from the first that fails it on
  /// (Rx `skipWhile`, RAC `-skipWhileBlock:`, Combine `drop(while:)`). `predicate` runs on the thread
  /// sending each value, and no more once it has failed; failures and the end pass through. Memory:
  /// none.
  @inlinable public func drop(while predicate: @escaping @Sendable (Element) -> Bool) -> Signal {
    lift { observer in
      let dropping = SubscriptionState(true)
      return { event in
        if case .next(let value) = event, dropping.value {
          if predicate(value) { return }
          dropping.value = false
        }
        observer.send(event)
      }
    }
  }

  /// Sends no values, only the end or the failure (RAC `-ignoreValues`, Rx `ignoreElements`, Combine
  /// `ignoreOutput`). Memory: none.
  @inlinable public func ignoreValues() -> Signal {
    lift { observer in
      { event in
        if case .next = event { return }
        observer.send(event)
      }
    }
  }

  /// Ignores this signal's values and, once it finishes, subscribes to `next` and sends its events
  /// (RAC `-then:`). A failure of this signal ends it without subscribing to `next`. `next` is
  /// subscribed on the thread that finished this signal. Memory: none.
  @inlinable public func then<NewElement: Sendable>(_ next: Signal<NewElement, Failure>) -> Signal<NewElement, Failure>
  {
    compactMap { _ -> NewElement? in nil }.concat(next)
  }
}
