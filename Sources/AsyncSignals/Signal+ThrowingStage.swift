import Synchronization

extension Signal where Failure == any Error {
  /// A stateless stage whose step may throw, fused with this signal's subscription (one observer for
  /// the whole chain, as ``map(_:)``): the seam RxSwift's throwing `map`, `filter` and `compactMap`
  /// use.
  ///
  /// `step` runs inside the upstream's delivery, one value at a time, on the producer's thread, and
  /// calls its second argument for each value to send on (zero or more times). A thrown error is sent
  /// downstream as the failure and ends the upstream subscription at once: no later event reaches the
  /// stage. The upstream's own end is forwarded as it is.
  @inlinable package func fusedThrowingStage<NewElement: Sendable>(
    _ step: @escaping @Sendable (Element, (NewElement) -> Void) throws -> Void
  ) -> Signal<NewElement, any Error> {
    let upstream = self
    return Signal<NewElement, any Error>(fused: { handler, beforeStart in
      let root = ThrowingStageRoot()
      return upstream.observe(
        { event in
          switch event {
          case .next(let value):
            do {
              try step(value) { handler(.next($0)) }
            } catch {
              handler(.failed(error))
              root.endUpstream()
            }
          case .failed(let error): handler(.failed(error))
          case .finished: handler(.finished)
          }
        },
        beforeStart: { observer in
          root.attach(observer)
          beforeStart?(observer)
        })
    })
  }
}

/// The upstream subscription of a throwing stage: the observer at the chain's source, given before the
/// producer starts, ended when the stage's step throws.
@usableFromInline final class ThrowingStageRoot: Sendable {
  @usableFromInline let observer = Mutex<(any SignalObserverHandle)?>(nil)

  @inlinable init() {}

  /// Keeps the source's observer (before the producer starts).
  @inlinable func attach(_ observer: any SignalObserverHandle) { self.observer.withLock { $0 = observer } }

  /// Ends the upstream subscription: the source's observer delivers nothing more.
  @inlinable func endUpstream() { observer.withLock { $0 }?.dispose() }
}
