/// A `PublishSubject` that never ends: you `accept` values only (RxRelay's `PublishRelay`).
public final class PublishRelay<Element: Sendable>: ObservableType, Sendable {
  private let subject = PublishSubject<Element>()

  /// A relay with no observers.
  public init() {}

  /// Sends `event` to the current observers, on the calling thread.
  public func accept(_ event: Element) { subject.onNext(event) }

  /// Subscribes `observer` to the values accepted from now on.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  /// The relay as an `Observable`.
  public func asObservable() -> Observable<Element> { subject.asObservable() }
}
