import AsyncSchedulers
import AsyncSchedulersRxBridge
import Synchronization
import Testing

@Suite("Observable: single, ifEmpty, withUnretained and using, as RxSwift")
struct ObservableConditionalTests {
  @Test("single() sends the one value at once, and fails on a second value or on none")
  func singleValue() {
    #expect(trace(Observable.just(1).single()) == ["1", "completed"])
    #expect(trace(Observable.of(1, 2, 3).single()) == ["1", "error(\(RxError.moreThanOneElement))"])
    #expect(trace(Observable<Int>.empty().single()) == ["error(\(RxError.noElements))"])
    #expect(trace(Observable.of(1, 2, 3).single { $0 == 2 }) == ["2", "completed"])
  }

  @Test("ifEmpty switches to the fallback only when the source completes with no value")
  func ifEmptyFallback() {
    let subscribed = Log()
    let fallback = Observable.of(7, 8).do(onSubscribe: { subscribed("fallback") })
    #expect(trace(Observable<Int>.empty().ifEmpty(switchTo: fallback)) == ["7", "8", "completed"])
    #expect(trace(Observable.of(1).ifEmpty(switchTo: fallback)) == ["1", "completed"])
    #expect(subscribed.values == ["fallback"])
    #expect(trace(Observable<Int>.empty().ifEmpty(default: 5)) == ["5", "completed"])
    #expect(trace(Observable<Int>.error(RxError.timeout).ifEmpty(default: 5)) == ["error(\(RxError.timeout))"])
  }

  @Test("from takes any sequence and an optional on a scheduler; distinctUntilChanged(at:) compares a property")
  func sequencesAndKeyPaths() {
    #expect(
      trace(Observable.from(AnySequence([1, 2]), scheduler: CurrentThreadScheduler.instance)) == [
        "1", "2", "completed",
      ])
    #expect(trace(Observable.from(optional: Int?.none, scheduler: CurrentThreadScheduler.instance)) == ["completed"])
    let words = Observable.of("a", "b", "cc", "dd", "e")
    #expect(trace(words.distinctUntilChanged(at: \.count)) == ["a", "cc", "e", "completed"])
  }

  struct Retryable: Error {}

  @Test("typed retry(when:) sees only the errors of its type; another error fails the sequence")
  func typedRetryWhen() {
    let attempts = Log()
    let source = Observable<Int>.deferred {
      attempts("attempt")
      return attempts.values.count == 1 ? .error(Retryable()) : .error(RxError.overflow)
    }
    let retried = source.retry { (errors: Observable<Retryable>) in errors }
    #expect(trace(retried) == ["error(\(RxError.overflow))"])
    #expect(attempts.values.count == 2)
  }

  final class Owner: Sendable {}

  @Test("withUnretained pairs values with the object, and completes once it is gone")
  func withUnretainedCompletesWhenTheObjectIsGone() {
    let subject = PublishSubject<Int>()
    let recorder = Recorder<String>()
    var owner: Owner? = Owner()
    let expected = ObjectIdentifier(owner!)
    _ = subject.withUnretained(owner!) { object, value in "\(value) with \(ObjectIdentifier(object) == expected)" }
      .subscribe(recorder)
    subject.onNext(1)
    owner = nil
    subject.onNext(2)
    subject.onNext(3)
    #expect(recorder.trace == ["1 with true", "completed"])
  }

  final class Resource: Disposable, Sendable {
    let log: Log
    init(_ log: Log) { self.log = log }
    func dispose() { log("resource disposed") }
  }

  @Test("using disposes the resource after the inner subscription ends, and when a factory throws")
  func usingDisposesItsResource() {
    let log = Log()
    let ends = Observable.using(
      { Resource(log) }, observableFactory: { _ in Observable.of(1).do(onDispose: { log("inner disposed") }) })
    #expect(trace(ends) == ["1", "completed"])
    #expect(log.values == ["inner disposed", "resource disposed"])
    let failing = Observable<Int>.using({ Resource(log) }, observableFactory: { _ in throw RxError.unknown })
    #expect(trace(failing) == ["error(\(RxError.unknown))"])
    #expect(log.values.last == "resource disposed")
    let subject = PublishSubject<Int>()
    let disposed = Log()
    let subscription = Observable.using({ Resource(disposed) }, observableFactory: { _ in subject.asObservable() })
      .subscribe()
    #expect(disposed.values.isEmpty)
    subscription.dispose()
    #expect(disposed.values == ["resource disposed"])
  }
}

/// A subject of its own, as RxSwift's tests write one: an observable with an observer side.
private final class EchoSubject: SubjectType, Sendable {
  typealias Element = Int
  let inner = PublishSubject<Int>()
  func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable where Observer.Element == Int {
    inner.subscribe(observer)
  }
  func asObserver() -> AnyObserver<Int> { inner.asObserver() }
}

@Suite("SubjectType and ConnectableObservableType")
struct SubjectTypeTests {
  @Test("multicast shares a source through a subject of the caller's own, started by connect()")
  func multicastThroughACustomSubject() {
    let connectable = Observable.of(1, 2).multicast(EchoSubject())
    let recorder = Recorder<Int>()
    _ = connectable.subscribe(recorder)
    #expect(recorder.trace == [])
    func connect(_ source: some ConnectableObservableType) -> any Disposable { source.connect() }
    _ = connect(connectable)
    #expect(recorder.trace == ["1", "2", "completed"])
  }
}
