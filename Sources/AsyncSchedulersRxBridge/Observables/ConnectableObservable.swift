import AsyncSchedulers
import AsyncSignals
import Synchronization

/// A sequence that shares one subscription of its source among its observers, started by
/// ``connect()`` (RxSwift's `ConnectableObservable`, made by `publish`, `replay` and `multicast`).
///
/// The observers subscribe to a subject, made when first needed by the subject factory `multicast`
/// was given (one fixed subject for `multicast(_:)`). A connection sends the source's events to that
/// subject; when the connection ends (the source ends, or the connection is disposed), the subject is
/// let go, and the next subscriber or connection gets a new one from the factory, as in RxSwift.
public final class ConnectableObservable<Element>: ObservableType, Sendable {
  /// The two faces of one subject.
  private struct Subject: Sendable {
    let observer: AnyObserver<Element>
    let observable: Observable<Element>
  }

  private struct State {
    var subject: Subject?
    var connection: Connection?
  }

  /// One connection: the source's subscription sending to one subject, ended once.
  private final class Connection: Disposable, Sendable {
    weak let parent: ConnectableObservable?
    let subscription = SingleAssignmentDisposable()
    private let ended = Atomic<Bool>(false)

    init(parent: ConnectableObservable) { self.parent = parent }

    /// Forwards `event` to `subject`, unless the connection has ended; a terminal event ends it first.
    func forward(_ event: Event<Element>, to subject: AnyObserver<Element>) {
      guard !ended.load(ordering: .acquiring) else { return }
      if event.isStopEvent { dispose() }
      subject.on(event)
    }

    func dispose() {
      guard !ended.exchange(true, ordering: .acquiringAndReleasing) else { return }
      parent?.connectionEnded(self)
      subscription.dispose()
    }
  }

  private let source: Signal<RxElement<Element>, any Error>
  private let makeSubject: @Sendable () -> Subject
  private let state = Mutex(State())

  init<MadeSubject: SubjectType>(
    source: Signal<RxElement<Element>, any Error>, makeSubject: @escaping @Sendable () -> MadeSubject
  )
  where MadeSubject.Element == Element, MadeSubject.Observer.Element == Element {
    self.source = source
    self.makeSubject = {
      let subject = makeSubject()
      return Subject(observer: AnyObserver(subject.asObserver()), observable: subject.asObservable())
    }
  }

  /// Subscribes `observer` to the shared events (the subject's: nothing flows before ``connect()``).
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    currentSubject().observable.subscribe(observer)
  }

  /// Subscribes the source, once, sending its events to the observers; disposing the returned
  /// disposable ends that connection (a later `connect()` starts a new one). While a connection lasts,
  /// `connect()` returns it.
  public func connect() -> any Disposable {
    let subject = currentSubject()
    let (connection, isNew) = state.withCriticalRegion { state -> (Connection, Bool) in
      if let connection = state.connection { return (connection, false) }
      let connection = Connection(parent: self)
      state.connection = connection
      // The subject this connection sends to stays the current one while it lasts.
      if state.subject == nil { state.subject = subject }
      return (connection, true)
    }
    if isNew {
      let target = state.withCriticalRegion { $0.subject } ?? subject
      connection.subscription.setDisposable(source.subscribe { connection.forward(Event($0), to: target.observer) })
    }
    return connection
  }

  /// The current subject, made by the factory (outside the lock: it is user code) when there is none.
  private func currentSubject() -> Subject {
    if let subject = state.withCriticalRegion({ $0.subject }) { return subject }
    let made = makeSubject()
    return state.withCriticalRegion { state in
      if let subject = state.subject { return subject }
      state.subject = made
      return made
    }
  }

  /// A connection ended: if it is the current one, it and its subject are let go.
  private func connectionEnded(_ connection: Connection) {
    state.withCriticalRegion { state in
      guard state.connection === connection else { return }
      state.connection = nil
      state.subject = nil
    }
  }
}

extension ConnectableObservableType {
  /// A sequence that connects when its first observer subscribes and disconnects when its last one
  /// leaves (RxSwift's `refCount`). When the source ends, the count starts again from zero (the next
  /// observer connects anew); an observer that the subject ends at once (it has ended and replays the
  /// end as it is subscribed) neither counts nor connects.
  public func refCount() -> Observable<Element> {
    let counting = RefCounting(self)
    return Observable.create { counting.subscribe($0) }
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
  /// A connectable sequence multicasting through `subject`, the same one for every connection
  /// (RxSwift's `multicast(_:)`).
  public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Element>
  where Subject.Element == Element, Subject.Observer.Element == Element {
    let shared = UncheckedSubject(subject)
    return ConnectableObservable(source: signal) { shared.subject }
  }

  /// A connectable sequence multicasting through a subject `makeSubject` makes when one is first needed
  /// and again after each connection ends (RxSwift's `multicast(makeSubject:)`). `makeSubject` runs on
  /// the thread that subscribes or connects, never under a lock.
  public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject)
    -> ConnectableObservable<Element>
  where Subject.Element == Element, Subject.Observer.Element == Element {
    return ConnectableObservable(source: signal, makeSubject: rxClosure(makeSubject))
  }

  /// Each subscription makes a subject with `subjectSelector`, gives `selector` the source shared through
  /// it, subscribes to what `selector` returns, and then connects (RxSwift's `multicast(_:selector:)`).
  /// An error either closure throws fails that subscription.
  public func multicast<Subject: SubjectType, Result>(
    _ subjectSelector: @escaping () throws -> Subject,
    selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>
  ) -> Observable<Result> where Subject.Element == Element, Subject.Observer.Element == Element {
    let subjectSelector = rxClosure(subjectSelector)
    let selector = rxClosure(selector)
    let source = signal
    return Observable.create { observer in
      do {
        let subject = UncheckedSubject(try subjectSelector())
        let connectable = ConnectableObservable(source: source) { subject.subject }
        let subscription = try selector(connectable.asObservable()).subscribe(observer)
        return Disposables.create(subscription, connectable.connect())
      } catch {
        observer.onError(error)
        return Disposables.create()
      }
    }
  }

  /// A connectable sequence with no replay (`multicast { PublishSubject() }`: a new subject after
  /// each connection ends).
  @inlinable public func publish() -> ConnectableObservable<Element> { multicast(makeSubject: { PublishSubject() }) }

  /// A connectable sequence replaying the latest `bufferSize` values (`multicast { ReplaySubject }`).
  @inlinable public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
    multicast(makeSubject: { ReplaySubject.create(bufferSize: bufferSize) })
  }

  /// A connectable sequence replaying every value (`multicast { ReplaySubject }`).
  @inlinable public func replayAll() -> ConnectableObservable<Element> {
    multicast(makeSubject: { ReplaySubject.createUnbounded() })
  }

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
      // One subject for the sequence's whole life, as RxSwift.
      return replay == 0
        ? multicast(PublishSubject()).refCount() : multicast(ReplaySubject.create(bufferSize: replay)).refCount()
    }
  }
}

/// A subject shared across threads by a multicast.
private final class UncheckedSubject<Subject: SubjectType>: @unchecked Sendable {
  // Why @unchecked Sendable: a subject is an observer and an observable that RxSwift's contract makes
  // safe to use from any thread: the bridge's subjects are `Sendable`; a custom one (which, as in
  // RxSwift, need not declare it) is used as RxSwift uses it, and its thread safety is its own.
  let subject: Subject
  init(_ subject: Subject) { self.subject = subject }
}
