/// A `PublishSubject` that never ends: you `accept` values only (RxRelay's `PublishRelay`).
public final class PublishRelay<Element>: ObservableType, Sendable {
  @usableFromInline let subject: PublishSubject<Element>

  /// A relay with no observers.
  @inlinable public init() { subject = PublishSubject() }

  /// Sends `event` to the current observers, on the calling thread.
  @inlinable public func accept(_ event: Element) { subject.onNext(event) }

  /// Subscribes `observer` to the values accepted from now on.
  @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  /// The relay as an `Observable`.
  @inlinable public func asObservable() -> Observable<Element> { subject.asObservable() }
}
