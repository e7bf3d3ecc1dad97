// RxSwift test and app code in Swift 6 language mode that writes its own observers and observables
// (plain classes with mutable state, as RxSwift's own test helpers are) and subscribes to traits with
// event closures that append to local arrays. It compiles so against RxSwift 6.10; only the imports
// are swapped.
import AsyncSchedulersRxBridge
import AsyncSchedulersRxBridgeTesting
import Testing

/// A mock observer as RxSwift's tests write one: a plain class recording into an array.
final class RecordingObserver<Element>: ObserverType {
  private(set) var events: [Event<Element>] = []

  func on(_ event: Event<Element>) { events.append(event) }
}

/// A hand-written hot observable as RxSwift's tests write one: a plain class with its observers.
final class HandHotObservable<Element>: ObservableType {
  private var observers: [Int: AnyObserver<Element>] = [:]
  private var nextKey = 0
  private(set) var subscriptionCount = 0
  var observerCount: Int { observers.count }

  func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
    let key = nextKey
    nextKey += 1
    subscriptionCount += 1
    observers[key] = AnyObserver(observer)
    return Disposables.create { self.observers[key] = nil }
  }

  func send(_ event: Event<Element>) {
    for observer in observers.values { observer.on(event) }
  }
}

@Suite("RxSwift observers and observables written by hand, in Swift 6 mode")
struct Swift6ObserversTests {
  @Test("A plain-class observer records a sequence's events, through operators and a subject")
  func plainClassObserver() {
    let observer = RecordingObserver<String>()
    _ = Observable.of(Article(id: 1, title: "a"), Article(id: 2, title: "b")).map(\.title).subscribe(observer)
    #expect(observer.events == [.next("a"), .next("b"), .completed])

    let subject = PublishSubject<Int>()
    let late = RecordingObserver<Int>()
    let subscription = subject.subscribe(late)
    subject.onNext(1)
    subscription.dispose()
    subject.onNext(2)
    #expect(late.events == [.next(1)])
  }

  @Test("A hand-written observable works with the bridge's operators and disposes its observer")
  func handWrittenObservable() {
    let source = HandHotObservable<Int>()
    let observer = RecordingObserver<Int>()
    let subscription = source.filter { $0 % 2 == 0 }.map { $0 * 10 }.subscribe(observer)
    source.send(.next(1))
    source.send(.next(2))
    subscription.dispose()
    #expect(source.observerCount == 0)
    source.send(.next(4))
    #expect(observer.events == [.next(20)])
    #expect(source.subscriptionCount == 1)

    let scheduler = TestScheduler(initialClock: 0)
    scheduler.scheduleAt(300) { source.send(.next(7)) }
    scheduler.scheduleAt(1_100) { source.send(.next(8)) }
    let res = scheduler.start { source.asObservable().delay(.seconds(5), scheduler: scheduler) }
    #expect(res.events == [.next(305, 7)])
    #expect(source.subscriptionCount == 2)
    #expect(source.observerCount == 0)
  }

  @Test("Traits' event subscriptions append to local arrays")
  func traitEventClosures() {
    var single: [SingleEvent<Int>] = []
    _ = Single.just(1).subscribe { single.append($0) }
    var maybe: [String] = []
    _ = Maybe<Int>.empty().subscribe { event in maybe.append("\(event)") }
    var completable: [String] = []
    _ = Completable.empty().subscribe { event in completable.append("\(event)") }
    var infallible: [String] = []
    _ = Infallible.just(3).subscribe { event in infallible.append("\(event)") }
    #expect(single.count == 1 && (try? single[0].get()) == 1)
    #expect(maybe == ["completed"])
    #expect(completable == ["completed"])
    #expect(infallible == ["next(3)", "completed"])
  }
}
