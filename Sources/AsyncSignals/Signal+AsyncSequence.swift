import AsyncSchedulers
import Synchronization

extension Signal: AsyncSequence {
  /// Iterates the signal with the default buffering, ``SignalBuffering/unbounded``; see
  /// ``values(buffering:)``.
  @inlinable public func makeAsyncIterator() -> SignalValues<Element, Failure>.Iterator {
    SignalValues(signal: self, buffering: .unbounded).makeAsyncIterator()
  }

  /// The signal's values as an `AsyncSequence` with an explicit buffering policy.
  ///
  /// Each iterator subscribes on its first `next()`. Values wait in the buffer while the loop body
  /// runs (``SignalBuffering``). Leaving the loop, releasing the iterator or cancelling the iterating
  /// task disposes the subscription, exactly once; a terminal event from the producer ends the loop
  /// after the buffered values (a failure is thrown, typed).
  /// - Precondition: a bounded policy keeps at least one value.
  @inlinable public func values(buffering: SignalBuffering) -> SignalValues<Element, Failure> {
    // Checked at the call, not only when an iterator starts, so the stop points at the mistake.
    switch buffering {
    case .unbounded: break
    case .bufferingNewest(let size), .bufferingOldest(let size):
      checkArgument(size >= 1, "Signal.values(buffering:): the buffer size must be at least 1 (got \(size))")
    }
    return SignalValues(signal: self, buffering: buffering)
  }
}

/// A signal's values as an `AsyncSequence`, with a buffering policy; see ``Signal/values(buffering:)``.
public struct SignalValues<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
  @usableFromInline let signal: Signal<Element, Failure>
  @usableFromInline let buffering: SignalBuffering

  @inlinable init(signal: Signal<Element, Failure>, buffering: SignalBuffering) {
    self.signal = signal
    self.buffering = buffering
  }

  /// Creates an iterator; it subscribes on its first `next()`.
  @inlinable public func makeAsyncIterator() -> Iterator {
    Iterator(storage: SignalIteratorStorage(signal: signal, buffering: buffering))
  }

  /// Iterates one subscription. Not shared between tasks.
  public struct Iterator: AsyncIteratorProtocol {
    /// Disposes the subscription when the last copy of the iterator goes away.
    @usableFromInline final class Lifetime {
      @usableFromInline let storage: SignalIteratorStorage<Element, Failure>
      @inlinable init(storage: SignalIteratorStorage<Element, Failure>) { self.storage = storage }
      deinit { storage.cancel() }
    }

    @usableFromInline let lifetime: Lifetime

    @inlinable init(storage: SignalIteratorStorage<Element, Failure>) { lifetime = Lifetime(storage: storage) }

    /// The next value, `nil` at the end (or once the task is cancelled); throws the signal's failure,
    /// after the values sent before it.
    @inlinable public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
      try await lifetime.storage.next(isolation: actor)
    }

    /// The next value; see ``next(isolation:)``.
    @inlinable public mutating func next() async throws(Failure) -> Element? {
      try await lifetime.storage.next(isolation: nil)
    }
  }
}

@available(*, unavailable)
extension SignalValues.Iterator: Sendable {}

/// The storage of one iteration: the state machine behind a lock, and the subscription.
@usableFromInline final class SignalIteratorStorage<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline typealias Continuation = UnsafeContinuation<Result<Element?, Failure>, Never>
  @usableFromInline let signal: Signal<Element, Failure>
  @usableFromInline let machine:
    Mutex<
      SignalIteratorStateMachine<Element, Failure, Continuation, SignalSubscription<Element, Failure>>
    >

  @inlinable init(signal: Signal<Element, Failure>, buffering: SignalBuffering) {
    self.signal = signal
    machine = Mutex(SignalIteratorStateMachine(policy: buffering))
  }

  @inlinable func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    // A value already buffered is returned at once: no continuation, no cancellation handler.
    if !Task.isCancelled, let result = machine.withCriticalRegion({ $0.takeWithoutWaiting() }) {
      return try result.get()
    }
    let result = await withTaskCancellationHandler {
      await withUnsafeContinuation(isolation: actor) { (continuation: Continuation) in
        self.next(continuation)
      }
    } onCancel: {
      self.cancel()
    }
    return try result.get()
  }

  @inlinable func next(_ continuation: Continuation) {
    while true {
      switch machine.withCriticalRegion({ $0.next(continuation) }) {
      case .subscribe:
        // Subscribing runs the producer's closure: never under the lock.
        let subscription = signal.subscribe { [self] event in receive(event) }
        machine.withCriticalRegion { $0.subscribed(subscription) }?.dispose()
      case .resume(let result):
        continuation.resume(returning: result)
        return
      case .suspend:
        return
      }
    }
  }

  @inlinable func receive(_ event: SignalEvent<Element, Failure>) {
    switch event {
    case .next(let value):
      switch machine.withCriticalRegion({ $0.receive(value) }) {
      case .resume(let continuation): continuation.resume(returning: .success(value))
      case .evicted(let evicted): withExtendedLifetime(evicted) {}
      case .none: break
      }
    case .finished:
      if let (continuation, result) = machine.withCriticalRegion({ $0.receive(terminal: .finished) }) {
        continuation.resume(returning: result)
      }
    case .failed(let error):
      if let (continuation, result) = machine.withCriticalRegion({ $0.receive(terminal: .failed(error)) }) {
        continuation.resume(returning: result)
      }
    }
  }

  @inlinable func cancel() {
    let cancelled = machine.withCriticalRegion { $0.cancel() }
    let (continuation, subscription) = (cancelled.0, cancelled.1)
    withExtendedLifetime(cancelled.dropped) {}
    subscription?.dispose()
    continuation?.resume(returning: .success(nil))
  }
}
