/// What receives an observable sequence's events (RxSwift's `ObserverType`).
///
/// Observers are called from whatever thread the sequence sends on, one event at a time. As in RxSwift,
/// an observer need not be `Sendable` (a test's mock observer appends to its own array): the bridge
/// calls it under RxSwift's contract (see `RxClosure`), and what it touches on the sending thread is
/// the app's part. The bridge's own observers (``AnyObserver``, the subjects) are `Sendable`.
public protocol ObserverType: SendableMetatype {
  /// The type of the values observed.
  associatedtype Element

  /// Receives one event. Never called again after an `error` or `completed` event.
  func on(_ event: Event<Element>)
}

extension ObserverType {
  /// Sends a value (`on(.next(element))`).
  @inlinable public func onNext(_ element: Element) { on(.next(element)) }

  /// Ends the sequence successfully (`on(.completed)`).
  @inlinable public func onCompleted() { on(.completed) }

  /// Ends the sequence with `error` (`on(.error(error))`).
  @inlinable public func onError(_ error: any Swift.Error) { on(.error(error)) }

  /// This observer as an `AnyObserver`.
  @inlinable public func asObserver() -> AnyObserver<Element> { AnyObserver(eventHandler: { self.on($0) }) }

  /// An observer that transforms each value with `transform` and sends it to this one (RxSwift's
  /// `mapObserver`). `transform` runs on the sending thread.
  @inlinable public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element)
    -> AnyObserver<Result>
  {
    let transform = rxClosure(transform)
    return AnyObserver(eventHandler: { self.on($0.map(transform)) })
  }
}
