import AsyncSignals

/// What can be turned into an `Observable` (RxSwift's `ObservableConvertibleType`): observables,
/// subjects, relays and traits. The bridge's own are `Sendable`; as in RxSwift, one an app writes need
/// not be: operators turn it into an `Observable` where they are given it, and subscribe to it under
/// RxSwift's contract (see `RxClosure`).
public protocol ObservableConvertibleType: SendableMetatype {
  /// The type of the values the sequence sends. As in RxSwift, it need not be `Sendable`: the app
  /// chooses which threads its values cross (see `RxElement`).
  associatedtype Element

  /// This sequence as an `Observable`.
  func asObservable() -> Observable<Element>
}

/// An observable sequence (RxSwift's `ObservableType`): every operator of the bridge is defined on it.
public protocol ObservableType: ObservableConvertibleType {
  /// Subscribes `observer`: it gets the sequence's events until the end or until the returned
  /// disposable is disposed.
  ///
  /// A cold sequence starts its work now, on the calling thread, for this subscription; events reach
  /// the observer on the thread that sends them, one at a time, never after the end or after disposal.
  func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable where Observer.Element == Element
}

extension ObservableType {
  /// This sequence as an `Observable`, subscribing through ``subscribe(_:)``.
  public func asObservable() -> Observable<Element> {
    let source = RxElement(self)
    return Observable(Signal { observer in source.value.subscribe(AnyObserver(observer)) })
  }

  /// The native signal this sequence is.
  @inlinable var signal: Signal<RxElement<Element>, any Error> { asObservable().signal }
}
