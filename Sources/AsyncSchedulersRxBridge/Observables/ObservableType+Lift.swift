import AsyncSchedulers
import AsyncSignals

extension ObservableType {
  /// An operator whose every subscription subscribes once upstream: `makeStep` runs per subscription,
  /// on the subscribing thread, and returns the handler of the upstream's events, which sends to the
  /// downstream observer. An error the handler throws fails the downstream and disposes the upstream.
  @inlinable func lift<Result>(
    _ makeStep:
      @escaping @Sendable () -> @Sendable (Event<Element>, SignalObserver<RxElement<Result>, any Error>) throws -> Void
  ) -> Observable<Result> {
    let upstream = signal
    return Observable(
      Signal { observer in
        let step = makeStep()
        return upstream.subscribe(linkedTo: observer) { event in
          do { try step(Event(event), observer) } catch { observer.fail(error) }
        }
      })
  }

  /// An operator that handles each value with `onValue` and forwards the end as it is.
  @inlinable func liftValues<Result>(
    _ onValue: @escaping @Sendable (Element, SignalObserver<RxElement<Result>, any Error>) throws -> Void
  ) -> Observable<Result> {
    lift {
      { event, observer in
        switch event {
        case .next(let value): try onValue(value, observer)
        case .error(let error): observer.fail(error)
        case .completed: observer.finish()
        }
      }
    }
  }
}

extension ObservableType {
  /// An operator fused into the upstream's subscription (no subscription of its own): `step` handles
  /// each value and sends what it makes with its second argument; an error it throws fails the sequence
  /// and disposes the upstream.
  @inlinable func stage<Result>(
    _ step: @escaping @Sendable (Element, (Result) -> Void) throws -> Void
  ) -> Observable<Result> {
    Observable(signal.fusedThrowingStage { box, send in try step(box.value) { send(RxElement($0)) } })
  }
}
