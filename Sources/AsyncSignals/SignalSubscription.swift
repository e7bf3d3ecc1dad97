import AsyncSchedulers

/// The subscriber's handle on one subscription: disposing it ends the subscription.
///
/// Disposing stops delivery (an event being delivered on another thread finishes; nothing follows it)
/// and disposes the producer's resources exactly once, on the disposing thread. It is safe from
/// inside the subscriber's own handler, from any thread, any number of times.
public struct SignalSubscription<Element: Sendable, Failure: Error>: Disposable {
  /// The observer at the subscription's source (of another element type when operators were fused).
  @usableFromInline let observer: any SignalObserverHandle

  @inlinable init(observer: any SignalObserverHandle) { self.observer = observer }

  /// Ends the subscription; only the first call has an effect.
  public func dispose() { observer.dispose() }

  /// Whether the subscription was disposed (not whether the signal ended; see ``isTerminated``).
  public var isDisposed: Bool { observer.isDisposed }

  /// Whether the signal ended (a terminal event was sent) or the subscription was disposed.
  public var isTerminated: Bool { observer.isTerminated }
}

/// What a subscription's handle needs of the observer at its source, whatever its element type.
@usableFromInline protocol SignalObserverHandle: AnyObject, Sendable {
  /// Ends the subscription: nothing more is delivered, and the producer's resources are disposed.
  func dispose()
  /// Whether the subscription was disposed.
  var isDisposed: Bool { get }
  /// Whether the signal ended or the subscription was disposed.
  var isTerminated: Bool { get }
}

extension SignalObserver: SignalObserverHandle {}
