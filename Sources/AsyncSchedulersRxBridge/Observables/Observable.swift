import AsyncSignals

/// An observable sequence (RxSwift's `Observable`), built on the package's cold `Signal`: each
/// subscription runs the sequence anew, and its operators are the signals' operators with RxSwift's
/// names.
///
/// Subscribing is synchronous, as in RxSwift: `Observable.of(1, 2, 3).subscribe(onNext:)` has
/// delivered all three values when `subscribe` returns. Events reach observers one at a time, never
/// after the end, and a subscription's resources are disposed exactly once, after the end or when the
/// subscription is disposed.
public struct Observable<Element>: ObservableType, Sendable {
  /// The native signal: `Failure` is `any Error`, as Rx errors are untyped; each value travels in its
  /// box (see `RxElement`), so that `Element` need not be `Sendable`, as in RxSwift.
  @usableFromInline let signal: Signal<RxElement<Element>, any Error>

  /// The observable of a native signal.
  @inlinable init(_ signal: Signal<RxElement<Element>, any Error>) { self.signal = signal }

  /// Subscribes `observer`; see ``ObservableType/subscribe(_:)``.
  @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    let observer = RxElement(observer)
    return signal.subscribe { observer.value.on(Event($0)) }
  }

  /// This observable.
  @inlinable public func asObservable() -> Observable<Element> { self }
}
