import AsyncSchedulers
import AsyncSignals
import Synchronization

/// A hot sequence that sends only its last value, when it completes (RxSwift's `AsyncSubject`); an
/// error is sent without a value. Observers arriving after the end get the same.
///
/// Thread-safe as ``PublishSubject``.
public final class AsyncSubject<Element>: ObservableType, ObserverType, Sendable {
  @usableFromInline let last: Mutex<RxElement<Element>?>
  @usableFromInline let core: RxSubjectCore<RxElement<Element>>

  /// A subject with no value.
  @inlinable public init() {
    last = Mutex(nil)
    core = RxSubjectCore(subject: ReplaySignalSubject(capacity: 1), replaysAfterEnd: true)
  }

  /// Keeps a value as the last one; sends it and the completion on `completed`; sends an error alone.
  @inlinable public func on(_ event: Event<Element>) {
    switch event {
    case .next(let value):
      let box = RxElement(value)
      last.withCriticalRegion { $0 = box }
    case .error: core.on(event.boxedEvent)
    case .completed:
      if let value = last.withCriticalRegion({ $0 }) { core.on(.next(value)) }
      core.on(.completed)
    }
  }

  /// Subscribes `observer`: it gets the last value and the completion, or the error, when they come.
  @inlinable public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    asObservable().subscribe(observer)
  }

  /// The subject as an `Observable`.
  @inlinable public func asObservable() -> Observable<Element> { Observable(core.signal(owner: self)) }

  /// Whether the subject has observers that have not ended.
  public var hasObservers: Bool { core.hasObservers }
}
