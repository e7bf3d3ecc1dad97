import AsyncSignals

/// A value of an observable sequence, carried through the native signals the bridge is built on.
///
/// RxSwift's `Observable<Element>` asks nothing of `Element`: Swift 6 app code sends non-`Sendable`
/// models through it, and the bridge accepts the same code. The native `Signal` it is built on requires
/// `Sendable` values (its users get Swift's checking), so the bridge carries each value in this box.
/// The box is as large as the value and costs nothing to make or open. An app's observer (RxSwift's
/// `ObserverType` asks nothing either) travels in it too.
@frozen @usableFromInline
package struct RxElement<Value>: @unchecked Sendable {
  // Why @unchecked Sendable: the bridge hands a value along one subscription's chain, one event at a
  // time (the observable grammar, which the native signals enforce), and keeps no value of its own
  // except behind its locks (a subject's current value, a replay buffer: the lock guards the buffer,
  // not the value) or in one subscription's operator state (a scan's accumulator, a key to compare),
  // which that subscription's observer touches one event at a time. What RxSwift hands out more than
  // once, the bridge does too, and no more: a value the app gave an operator (`just`, `startWith`,
  // `catchAndReturn`, a scan's seed) goes to each subscription; a multicast (`share`, `publish`, a
  // subject) hands one value to every observer, each on the thread that delivers to it (after
  // `observe(on:)`, concurrently); a replay subject replays on the subscribing thread while it sends
  // live on the sender's. Which threads a value crosses is the app's choice, and RxSwift's contract,
  // which the bridge keeps, leaves the value's own thread safety to the app; a `Sendable` value needs
  // nothing.
  @usableFromInline package var value: Value

  /// Carries `value`.
  @inlinable package init(_ value: Value) { self.value = value }
}

extension RxElement: Equatable where Value: Equatable {}

extension RxElement: Hashable where Value: Hashable {}

extension SignalObserver {
  /// Sends `value`, carried in its box (see `RxElement`).
  @inlinable package func send<Value>(_ value: Value) where Element == RxElement<Value> {
    send(.next(RxElement(value)))
  }
}

extension Event {
  /// The Rx event of a native signal's event, its value taken out of its box.
  @inlinable package init(_ event: SignalEvent<RxElement<Element>, any Error>) {
    switch event {
    case .next(let box): self = .next(box.value)
    case .failed(let error): self = .error(error)
    case .finished: self = .completed
    }
  }

  /// The native signal's event of this Rx event, its value in its box.
  @inlinable package var signalEvent: SignalEvent<RxElement<Element>, any Error> {
    switch self {
    case .next(let value): .next(RxElement(value))
    case .error(let error): .failed(error)
    case .completed: .finished
    }
  }
}

extension Event {
  /// This event with its value in its box, for the bridge's machinery that keeps events behind a lock.
  @inlinable package var boxedEvent: Event<RxElement<Element>> {
    switch self {
    case .next(let value): .next(RxElement(value))
    case .error(let error): .error(error)
    case .completed: .completed
    }
  }

  /// This event with its value taken out of its box.
  @inlinable package func unboxed<Value>() -> Event<Value> where Element == RxElement<Value> {
    switch self {
    case .next(let box): .next(box.value)
    case .error(let error): .error(error)
    case .completed: .completed
    }
  }
}

extension Event where Element: Sendable {
  /// The same event as the native signals spell it, its value as it is (already `Sendable`).
  @inlinable package var nativeEvent: SignalEvent<Element, any Error> {
    switch self {
    case .next(let value): .next(value)
    case .error(let error): .failed(error)
    case .completed: .finished
    }
  }

  /// The event a native signal of `Sendable` values delivered, its value as it is.
  @inlinable package init<Failure: Error>(native event: SignalEvent<Element, Failure>) {
    switch event {
    case .next(let value): self = .next(value)
    case .failed(let error): self = .error(error)
    case .finished: self = .completed
    }
  }
}

extension Signal where Failure == any Error {
  /// The signal of `transform`'s results, each in its box, fused into this signal's subscription; an
  /// error `transform` throws fails it. What the Rx bridge's multi-source operators end with.
  @inlinable package func rxMap<Result>(_ transform: @escaping @Sendable (Element) throws -> Result)
    -> Signal<RxElement<Result>, any Error>
  {
    fusedThrowingStage { value, send in send(RxElement(try transform(value))) }
  }
}
