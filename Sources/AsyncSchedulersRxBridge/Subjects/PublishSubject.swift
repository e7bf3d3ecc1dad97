import AsyncSchedulers
import AsyncSignals

/// A hot sequence you send to by hand, multicast to its current observers with no replay (RxSwift's
/// `PublishSubject`). An observer arriving after the end gets the end at once.
///
/// Thread-safe: events sent from several threads reach each observer one at a time, in the order they
/// were accepted, on the sending thread, with no lock held.
public final class PublishSubject<Element>: ObservableType, ObserverType, Disposable, Sendable {
  @usableFromInline let core: RxSubjectCore<RxElement<Element>>

  /// A subject with no observers.
  @inlinable public init() { core = RxSubjectCore(subject: ReplaySignalSubject(capacity: 0), replaysAfterEnd: false) }

  /// Sends `event` to the current observers; ignored after the end or after `dispose()`.
  @inlinable public func on(_ event: Event<Element>) { core.on(event.boxedEvent) }

  /// Subscribes `observer` to the events sent from now on.
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
