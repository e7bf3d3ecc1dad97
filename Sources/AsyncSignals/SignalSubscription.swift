import AsyncSchedulers

/// The subscriber's handle on one subscription: disposing it ends the subscription.
///
/// Disposing stops delivery (an event being delivered on another thread finishes; nothing follows it)
/// and disposes the producer's resources exactly once, on the disposing thread. It is safe from
/// inside the subscriber's own handler, from any thread, any number of times.
public struct SignalSubscription<Element: Sendable, Failure: Error>: Disposable {
  @usableFromInline let observer: SignalObserver<Element, Failure>

  @inlinable init(observer: SignalObserver<Element, Failure>) { self.observer = observer }

  /// Ends the subscription; only the first call has an effect.
  public func dispose() { observer.dispose() }

  /// Whether the subscription was disposed (not whether the signal ended; see ``isTerminated``).
  public var isDisposed: Bool { observer.isDisposed }

  /// Whether the signal ended (a terminal event was sent) or the subscription was disposed.
  public var isTerminated: Bool { observer.isTerminated }
}
