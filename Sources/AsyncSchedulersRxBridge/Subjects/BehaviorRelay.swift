/// A `BehaviorSubject` that never ends: a current value you replace with `accept` (RxRelay's
/// `BehaviorRelay`).
public final class BehaviorRelay<Element>: ObservableType, Sendable {
  @usableFromInline let subject: BehaviorSubject<Element>

  /// A relay whose current value is `value`.
  @inlinable public init(value: Element) { subject = BehaviorSubject(value: value) }

  /// The current value.
  @inlinable public var value: Element {
    // A relay never ends and is never disposed, so the subject always has a value.
    (try? subject.value())!
  }

  /// Makes `event` the current value and sends it to the observers, on the calling thread.
  @inlinable public func accept(_ event: Element) { subject.onNext(event) }

  /// Subscribes `observer`: the current value, then the values accepted from now on.
  @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    subject.subscribe(observer)
  }

  /// The relay as an `Observable`.
  @inlinable public func asObservable() -> Observable<Element> { subject.asObservable() }
}
