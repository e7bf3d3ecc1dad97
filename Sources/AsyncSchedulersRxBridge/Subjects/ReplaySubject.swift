import AsyncSchedulers
import AsyncSignals

/// A hot sequence that replays up to a number of its latest values to each new observer (RxSwift's
/// `ReplaySubject`), and the end after them once it came.
///
/// Thread-safe as ``PublishSubject``.
public final class ReplaySubject<Element>: ObservableType, ObserverType, Disposable, Sendable {
  @usableFromInline let core: RxSubjectCore<RxElement<Element>>

  @usableFromInline init(capacity: Int) {
    core = RxSubjectCore(subject: ReplaySignalSubject(capacity: capacity), replaysAfterEnd: true)
  }

  /// A subject replaying the latest `bufferSize` values.
  /// - Precondition: `bufferSize >= 0`.
  @inlinable public static func create(bufferSize: Int) -> ReplaySubject<Element> {
    checkArgument(bufferSize >= 0, "ReplaySubject.create: bufferSize must not be negative (got \(bufferSize))")
    return ReplaySubject(capacity: bufferSize)
  }

  /// A subject replaying every value it was sent.
  @inlinable public static func createUnbounded() -> ReplaySubject<Element> { ReplaySubject(capacity: .max) }

  /// Sends `event`, keeping it for the replay; ignored after the end or `dispose()`.
  @inlinable public func on(_ event: Event<Element>) { core.on(event.boxedEvent) }

  /// Subscribes `observer`: the replay, then the events sent from now on.
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
