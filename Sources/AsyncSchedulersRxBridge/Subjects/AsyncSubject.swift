import AsyncSchedulers
import AsyncSignals
import Synchronization

/// A hot sequence that sends only its last value, when it completes (RxSwift's `AsyncSubject`); an
/// error is sent without a value. Observers arriving after the end get the same.
///
/// Thread-safe as ``PublishSubject``.
public final class AsyncSubject<Element: Sendable>: ObservableType, ObserverType, Sendable {
  private let last = Mutex<Element?>(nil)
  private let core = RxSubjectCore<Element>(subject: ReplaySignalSubject(capacity: 1), replaysAfterEnd: true)

  /// A subject with no value.
  public init() {}

  /// Keeps a value as the last one; sends it and the completion on `completed`; sends an error alone.
  public func on(_ event: Event<Element>) {
    switch event {
    case .next(let value): last.withCriticalRegion { $0 = value }
    case .error: core.on(event)
    case .completed:
      if let value = last.withCriticalRegion({ $0 }) { core.on(.next(value)) }
      core.on(.completed)
    }
  }

  /// Subscribes `observer`: it gets the last value and the completion, or the error, when they come.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    asObservable().subscribe(observer)
  }

  /// The subject as an `Observable`.
  public func asObservable() -> Observable<Element> { Observable(core.signal(owner: self)) }

  /// Whether the subject has observers that have not ended.
  public var hasObservers: Bool { core.hasObservers }
}
