import AsyncSchedulers
import Synchronization

extension Signal {
  /// On failure, subscribes to the signal `handler` makes from the error and sends its events instead
  /// (RAC `-catch:`, Rx `catch`, Combine `catch`). `handler` runs once, on the thread that sent the
  /// failure; the end of this signal passes through. Memory: none.
  @inlinable public func `catch`<NewFailure: Error>(
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
  /// `replaceError(with:)`): the signal never fails. Memory: `value`, for the signal's lifetime.
  @inlinable public func replaceError(with value: Element) -> Signal<Element, Never> {
    self.catch { _ in Signal<Element, Never>.just(value) }
  }

  /// On failure, subscribes to this signal again, up to `count` more times; the last failure passes
  /// through (RAC `-retry:`, Combine `retry(_:)`; Rx's `retry(n)` counts the first attempt, so it is
  /// `retry(n - 1)` here). Each retry is a new subscription,
  /// made on the thread that sent the failure; the failed one is disposed. A signal that fails while it
  /// is being subscribed is retried in a loop, not by recursion, so the stack does not grow. Memory:
  /// the retry count.
  /// - Precondition: `count >= 0`.
  public func retry(_ count: Int) -> Signal {
    checkArgument(count >= 0, "Signal.retry: count must not be negative (got \(count))")
    return retrying(limit: count)
  }

  /// On failure, subscribes to this signal again, as often as it fails, until it finishes or the
  /// subscriber disposes (Rx `retry()`, RAC `-retry`). See ``retry(_:)``.
  public func retry() -> Signal { retrying(limit: nil) }

  private func retrying(limit: Int?) -> Signal {
    Signal { observer in
      let retries = RetryLoop(limit: limit)
      retries.run(subscribing: self, into: observer)
      return retries.current
    }
  }
}

/// The subscriptions of one `retry` subscription: the current attempt, how many retries are left, and
/// whether a failure arrived while the attempt was being subscribed (then the loop subscribes again
/// instead of recursing).
final class RetryLoop: Sendable {
  /// The current attempt's subscription; replacing it disposes the failed one.
  let current = SerialDisposable()
  private let state: Mutex<(remaining: Int?, subscribing: Bool, again: Bool)>

  init(limit: Int?) { state = Mutex((limit, false, false)) }

  /// Subscribes to `signal` until an attempt does not fail (or no retry is left), forwarding events to
  /// `observer`.
  func run<Element: Sendable, Failure: Error>(
    subscribing signal: Signal<Element, Failure>, into observer: SignalObserver<Element, Failure>
  ) {
    while !observer.isTerminated {
      state.withCriticalRegion { state in
        state.subscribing = true
        state.again = false
      }
      let attempt = SerialDisposable()
      current.inner = attempt
      attempt.inner = signal.subscribe { event in
        if case .failed = event, self.takeRetry() {
          // A failure while subscribing: the loop below subscribes again; later: from here.
          let whileSubscribing = self.state.withCriticalRegion { state -> Bool in
            guard state.subscribing else { return false }
            state.again = true
            return true
          }
          if !whileSubscribing { self.run(subscribing: signal, into: observer) }
          return
        }
        observer.send(event)
      }
      let again = state.withCriticalRegion { state -> Bool in
        state.subscribing = false
        return state.again
      }
      if !again { return }
    }
  }

  /// Takes one retry, if any is left.
  private func takeRetry() -> Bool {
    state.withCriticalRegion { state in
      guard let remaining = state.remaining else { return true }
      guard remaining > 0 else { return false }
      state.remaining = remaining - 1
      return true
    }
  }
}
