import AsyncSchedulers
import AsyncSignals
import Synchronization

/// A sequence that shares one subscription of its source among its observers, started by
/// ``connect()`` (RxSwift's `ConnectableObservable`, made by `publish`, `replay` and `multicast`).
public final class ConnectableObservable<Element: Sendable>: ObservableType, Sendable {
  private struct Connection {
    var subscription: (any Disposable)?
    var observers = 0
  }

  private let source: Signal<Element, any Error>
  private let subjectObserver: AnyObserver<Element>
  private let shared: Observable<Element>
  private let connection = Mutex(Connection())

  init<Subject: SubjectType>(source: Signal<Element, any Error>, subject: Subject)
  where Subject.Element == Element, Subject.Observer.Element == Element {
    self.source = source
    subjectObserver = AnyObserver(subject.asObserver())
    shared = subject.asObservable()
  }

  /// Subscribes `observer` to the shared events (the subject's: nothing flows before ``connect()``).
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    shared.subscribe(observer)
  }

  /// Subscribes the source, once, sending its events to the observers; disposing the returned
  /// disposable ends that subscription (a later `connect()` starts a new one).
  public func connect() -> any Disposable {
    let subscription = SerialDisposable()
    let started = connection.withCriticalRegion { state -> Bool in
      guard state.subscription == nil else { return false }
      state.subscription = subscription
      return true
    }
    guard started else { return connection.withCriticalRegion { $0.subscription! } }
    let observer = subjectObserver
    subscription.disposable = source.subscribe { observer.on(Event($0)) }
    return Disposables.create {
      subscription.dispose()
      self.connection.withCriticalRegion { state in
        if (state.subscription as AnyObject?) === subscription { state.subscription = nil }
      }
    }
  }

  /// A sequence that connects when its first observer subscribes and disconnects when its last one
  /// leaves (RxSwift's `refCount`). An observer that the subject ends at once (it has already ended,
  /// and replays the end as it is subscribed) neither counts nor connects, as in RxSwift: the source is
  /// not subscribed again for it.
  public func refCount() -> Observable<Element> {
    Observable(
      Signal { observer in
        let endedAtOnce = Atomic<Bool>(false)
        let subscription = self.shared.signal.subscribe { event in
          if event.isTerminal { endedAtOnce.store(true, ordering: .relaxed) }
          observer.send(event)
        }
        // Read before anything else can end it: only an end sent during the subscription itself.
        if endedAtOnce.load(ordering: .relaxed) { return subscription }
        let connectNow = self.connection.withCriticalRegion { state -> Bool in
          state.observers += 1
          return state.observers == 1
        }
        let connection = connectNow ? self.connect() : nil
        return Disposables.create {
          subscription.dispose()
          let last = self.connection.withCriticalRegion { state -> (any Disposable)? in
            state.observers -= 1
            guard state.observers == 0 else { return nil }
            defer { state.subscription = nil }
            return state.subscription
          }
          last?.dispose()
          withExtendedLifetime(connection) {}
        }
      })
  }
}

/// How long `share(replay:scope:)` keeps its replay (RxSwift's `SubjectLifetimeScope`).
public enum SubjectLifetimeScope: Sendable {
  /// The replay lives while the source is connected; a new connection starts empty.
  case whileConnected
  /// The replay lives as long as the shared sequence, across connections.
  case forever
}

extension ObservableType {
  /// A connectable sequence multicasting through `subject` (RxSwift's `multicast`).
  public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Element>
  where Subject.Element == Element, Subject.Observer.Element == Element {
    ConnectableObservable(source: signal, subject: subject)
  }

  /// A connectable sequence with no replay (`multicast(PublishSubject())`).
  @inlinable public func publish() -> ConnectableObservable<Element> { multicast(PublishSubject()) }

  /// A connectable sequence replaying the latest `bufferSize` values (`multicast(ReplaySubject)`).
  @inlinable public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
    multicast(ReplaySubject.create(bufferSize: bufferSize))
  }

  /// A connectable sequence replaying every value.
  @inlinable public func replayAll() -> ConnectableObservable<Element> { multicast(ReplaySubject.createUnbounded()) }

  /// Shares one subscription of this sequence among the observers, replaying the latest `replay`
  /// values to each new one (RxSwift's `share(replay:scope:)`): the source is subscribed with the
  /// first observer and disposed when the last leaves.
  /// - Precondition: `replay >= 0`.
  public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
    checkArgument(replay >= 0, "Observable.share: replay must not be negative (got \(replay))")
    switch scope {
    case .whileConnected:
      let shared = SharedConnection(source: signal, replay: replay)
      return Observable.create { shared.subscribe($0) }
    case .forever:
      return replay == 0 ? publish().refCount() : self.replay(replay).refCount()
    }
  }
}
