/// One group of `groupBy`: the values of the source that share a key (RxSwift's `GroupedObservable`).
///
/// A hot sequence: it sends the group's values from the moment it is subscribed. Subscribing keeps the
/// source subscribed, even after the outer sequence of groups was disposed, until every group's
/// subscription is disposed too.
public struct GroupedObservable<Key, Element>: ObservableType, Sendable {
  /// The key every value of this group has (as in RxSwift, it need not be `Sendable`).
  public var key: Key { keyBox.value }
  /// The key, carried as the bridge carries values (see `RxElement`).
  private let keyBox: RxElement<Key>
  private let source: Observable<Element>

  /// A group with `key` whose values `source` sends.
  public init(key: Key, source: Observable<Element>) {
    self.keyBox = RxElement(key)
    self.source = source
  }

  /// Subscribes `observer` to the group's values from now on.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    source.subscribe(observer)
  }

  /// The group as an `Observable`.
  public func asObservable() -> Observable<Element> { source }
}
