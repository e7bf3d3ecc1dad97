/// A `ReplaySubject` that never ends (RxRelay's `ReplayRelay`).
public final class ReplayRelay<Element>: ObservableType, Sendable {
  @usableFromInline let subject: ReplaySubject<Element>

  @usableFromInline init(subject: ReplaySubject<Element>) { self.subject = subject }

  /// A relay replaying the latest `bufferSize` values.
  /// - Precondition: `bufferSize >= 0`.
  @inlinable public static func create(bufferSize: Int) -> ReplayRelay<Element> {
    ReplayRelay(subject: .create(bufferSize: bufferSize))
  }

  /// A relay replaying every value.
  @inlinable public static func createUnbound() -> ReplayRelay<Element> { ReplayRelay(subject: .createUnbounded()) }

  /// Sends `event` to the observers, keeping it for the replay, on the calling thread.
  @inlinable public func accept(_ event: Element) { subject.onNext(event) }

  /// Subscribes `observer`: the replay, then the values accepted from now on.
  @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  /// The relay as an `Observable`.
  @inlinable public func asObservable() -> Observable<Element> { subject.asObservable() }
}
