import AsyncSchedulers

extension Signal {
  /// On failure, subscribes to the signal `handler` makes from the error and sends its events instead
  /// (RAC `-catch:`, Rx `catch`, Combine `catch`). `handler` runs once, on the thread that sent the
  /// failure; the end of this signal passes through.
  public func `catch`<NewFailure: Error>(
    _ handler: @escaping @Sendable (Failure) -> Signal<Element, NewFailure>
  ) -> Signal<Element, NewFailure> {
    Signal<Element, NewFailure> { observer in
      // Two slots, as `concat`: this signal may fail while it is being subscribed, and then the
      // recovery's subscription is stored before this one's handle is.
      let first = SerialDisposable()
      let second = SerialDisposable()
      first.inner = subscribe { event in
        switch event {
        case .next(let value): observer.send(value)
        case .finished: observer.finish()
        case .failed(let error): second.inner = handler(error).subscribe(observer.send)
        }
      }
      return CompositeDisposable([first, second])
    }
  }

  /// On failure, sends `value` and finishes (RAC `-catchTo:` with a `+return:`, Combine
  /// `replaceError(with:)`): the signal never fails.
  public func replaceError(with value: Element) -> Signal<Element, Never> {
    self.catch { _ in Signal<Element, Never>.just(value) }
  }

  /// On failure, subscribes to this signal again, up to `count` more times; the last failure passes
  /// through (RAC `-retry:`, Rx `retry(_:)`, Combine `retry(_:)`). Each retry is a new subscription,
  /// made on the thread that sent the failure; a signal failing at once on every subscription retries
  /// `count` times in a row on that thread's stack, so keep `count` small.
  /// - Precondition: `count >= 0`.
  public func retry(_ count: Int) -> Signal {
    checkArgument(count >= 0, "Signal.retry: count must not be negative (got \(count))")
    guard count > 0 else { return self }
    return self.catch { _ in self.retry(count - 1) }
  }
}
