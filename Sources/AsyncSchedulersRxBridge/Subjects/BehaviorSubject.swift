import AsyncSchedulers
import AsyncSignals

/// A hot sequence holding a current value, which each new observer gets first (RxSwift's
/// `BehaviorSubject`). An observer arriving after the end gets the end only.
///
/// Thread-safe as ``PublishSubject``.
public final class BehaviorSubject<Element>: ObservableType, ObserverType, Disposable, Sendable {
  @usableFromInline let core: RxSubjectCore<RxElement<Element>>

  /// A subject whose current value is `value`.
  @inlinable public init(value: Element) {
    core = RxSubjectCore(
      subject: ReplaySignalSubject(capacity: 1, initialValue: RxElement(value)), replaysAfterEnd: false)
  }

  /// The current value; throws the error that ended the subject, or `RxError.disposed`.
  public func value() throws -> Element {
    guard let box = try core.latestValue(owner: self) else { throw RxError.noElements }
    return box.value
  }

  /// Makes `event`'s value the current one and sends it; ignored after the end or `dispose()`.
  @inlinable public func on(_ event: Event<Element>) { core.on(event.boxedEvent) }

  /// Subscribes `observer`: the current value, then the events sent from now on.
  @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    asObservable().subscribe(observer)
  }

  /// The subject as an `Observable`.
  @inlinable public func asObservable() -> Observable<Element> { Observable(core.signal(owner: self)) }

  /// The subject as an observer.
  public func asObserver() -> AnyObserver<Element> { AnyObserver(sendableHandler: { self.on($0) }) }

  /// Whether the subject has observers that have not ended.
  public var hasObservers: Bool { core.hasObservers }

  /// Whether `dispose()` was called.
  public var isDisposed: Bool { core.isDisposed }

  /// Stops the subject: later events are ignored, later subscribers fail with `RxError.disposed`.
  public func dispose() { core.dispose() }
}
