// RxTest-based tests as RxSwift projects have them, with `import RxSwift`/`import RxTest` swapped for
// the bridge and its testing module, in Swift 5 mode.
import AsyncSchedulersRxBridge
import AsyncSchedulersRxBridgeTesting
import Testing

@Suite("RxTest code after swapping the import")
struct RxTestSwapTests {
  @Test("start() creates at 100, subscribes at 200 and records a cold observable's events at their ticks")
  func coldObservableThroughMap() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([
      .next(10, 1), .next(20, 2), .completed(30),
    ])
    let res = scheduler.start { xs.map { $0 * 10 } }
    #expect(res.events == [.next(210, 10), .next(220, 20), .completed(230)])
    #expect(xs.subscriptions == [Subscription(200, 230)])
  }

  @Test("start() takes a trait too: a Single's value, a Completable's end, as RxTest")
  func startTakesTraits() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .completed(30)])
    let single = scheduler.start { xs.asSingle().map { $0 + 1 } }
    #expect(single.events == [.next(230, 2), .completed(230)])
    let fresh = TestScheduler(initialClock: 0)
    let ys = fresh.createColdObservable([.next(10, 1), .completed(30)])
    let completable = fresh.start { ys.ignoreElements().asCompletable() }
    #expect(completable.events == [.completed(230)])
  }

  @Test("A hot observable sends at absolute ticks; disposal at 1000 ends the subscription")
  func hotObservableFilter() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(150, 1), .next(210, 2), .next(240, 3), .next(1100, 4),
    ])
    let res = scheduler.start { xs.filter { $0 != 3 }.asObservable() }
    #expect(res.events == [.next(210, 2)])
    #expect(xs.subscriptions == [Subscription(200, 1000)])
  }

  @Test("Timed operators run on the scheduler's ticks: debounce, delay and interval")
  func timedOperators() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(300, 3), .completed(400),
    ])
    let debounced = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
    #expect(debounced.events == [.next(240, 2), .next(320, 3), .completed(400)])

    let delayScheduler = TestScheduler(initialClock: 0)
    let ys = delayScheduler.createColdObservable([.next(10, "a"), .completed(20)])
    let delayed = delayScheduler.start { ys.delay(.seconds(5), scheduler: delayScheduler) }
    #expect(delayed.events == [.next(215, "a"), .completed(225)])

    let ticking = TestScheduler(initialClock: 0)
    let ticks = ticking.start(disposed: 550) { Observable<Int>.interval(.seconds(100), scheduler: ticking) }
    #expect(ticks.events == [.next(300, 0), .next(400, 1), .next(500, 2)])
  }

  @Test("window closes each window after its time span or its third value, on the scheduler's ticks")
  func windowByTimeOrCount() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6),
      .next(370, 7), .next(420, 8), .next(470, 9), .completed(600),
    ])
    let res = scheduler.start {
      xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler)
        .enumerated()
        .flatMap { index, window in window.map { "\(index) \($0)" } }
    }
    #expect(
      res.events == [
        .next(205, "0 1"), .next(210, "0 2"), .next(240, "0 3"), .next(280, "1 4"), .next(320, "2 5"),
        .next(350, "2 6"), .next(370, "2 7"), .next(420, "3 8"), .next(470, "4 9"), .completed(600),
      ])
    #expect(xs.subscriptions == [Subscription(200, 600)])
  }

  @Test("observe(on:) on the test scheduler delays each event by one tick, as RxTest's processing delay")
  func processingDelay() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
    let res = scheduler.start { xs.observe(on: scheduler) }
    #expect(res.events == [.next(211, 1), .completed(221)])
  }

  @Test("createObserver and scheduleAt drive a subject by hand; errors compare by description")
  func manualDriving() {
    let scheduler = TestScheduler(initialClock: 0)
    let observer = scheduler.createObserver(Int.self)
    let subject = PublishSubject<Int>()
    scheduler.scheduleAt(10) { _ = subject.subscribe(observer) }
    scheduler.scheduleAt(20) { subject.onNext(1) }
    scheduler.scheduleAt(30) { subject.onError(RxError.timeout) }
    scheduler.start()
    #expect(observer.events == [.next(20, 1), .error(30, RxError.timeout)])
    #expect(Recorded.events(.next(1, "x")) == [.next(1, "x")])
  }

  @Test("RxTest's XCTAssertEqual fails a Swift Testing test too, naming the differing events")
  func xctAssertEqualUnderSwiftTesting() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(220)])
    let res = scheduler.start { xs.asObservable() }
    XCTAssertEqual(res.events, [.next(210, 1), .completed(220)])
    withKnownIssue {
      XCTAssertEqual(res.events, [.next(210, 2), .completed(220)])
    } matching: { issue in
      String(describing: issue).contains("[0] next(1) @ 210 ≠ next(2) @ 210")
    }
  }
}

extension RxTestSwapTests {
  @Test("a periodic timer re-arms each tick after it ran, as RxSwift: at a shared tick it follows timers armed before")
  func periodicTimersReArmAfterEachTick() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start(created: 0, subscribed: 200, disposed: 225) {
      Observable.merge(
        // Ticks at 210 and 220; its 220 tick is armed at 210.
        Observable<Int>.interval(.seconds(10), scheduler: scheduler).map { "a\($0)" },
        // Subscribed at 205: its first tick, at 220, is armed then, before a's.
        Observable<Int>.timer(.seconds(15), period: .seconds(100), scheduler: scheduler).map { "b\($0)" }
          .delaySubscription(.seconds(5), scheduler: scheduler))
    }
    #expect(res.events == [.next(210, "a0"), .next(220, "b0"), .next(220, "a1")])
  }

  @Test("subscribe(on:) subscribes and disposes upstream on the scheduler, each a tick later, as RxSwift")
  func subscribeOnSubscribesAndDisposesOnTheScheduler() {
    let scheduler = TestScheduler(initialClock: 0)
    let ending = scheduler.createHotObservable([.next(250, 1), .completed(300)])
    let res = scheduler.start { ending.subscribe(on: scheduler) }
    #expect(res.events == [.next(250, 1), .completed(300)])
    // Subscribed at 201 (a scheduled action); ended at 300, disposed at 301 (a scheduled disposal).
    #expect(ending.subscriptions == [Subscription(201, 301)])

    let endless = TestScheduler(initialClock: 0)
    let never = endless.createHotObservable([Recorded<Event<Int>>]())
    _ = endless.start { never.subscribe(on: endless) }
    #expect(never.subscriptions == [Subscription(201, 1001)])
  }
}

extension RxTestSwapTests {
  @Test("share(replay:) whileConnected: an observer resubscribing from its end handler starts a new connection")
  func resubscribingFromTheEndStartsANewConnection() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(300), .next(310, 2), .completed(400)])
    let shared = xs.share(replay: 1)
    let first = scheduler.createObserver(Int.self)
    let again = scheduler.createObserver(Int.self)
    // The current subscription, replaced from the end handler (a `SerialDisposable`, as RxSwift code
    // keeps one that changes: the closures are `@Sendable`).
    let subscription = SerialDisposable()
    scheduler.scheduleAt(200) {
      subscription.disposable = shared.subscribe { event in
        first.on(event)
        if case .completed = event { subscription.disposable = shared.subscribe(again) }
      }
    }
    scheduler.scheduleAt(350) { subscription.dispose() }
    scheduler.start()
    #expect(first.events == [.next(210, 1), .completed(300)])
    // A new connection at 300, with a new subject: nothing of the first connection is replayed.
    #expect(again.events == [.next(310, 2)])
    #expect(xs.subscriptions == [Subscription(200, 300), Subscription(300, 350)])
  }

  @Test("scheduleAt and start at tick 0 run at tick 0; only scheduler calls take the processing delay")
  func tickZeroIsTickZero() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(1, 1), .completed(2)])
    let res = scheduler.start(created: 0, subscribed: 0, disposed: 100) { xs.asObservable() }
    #expect(res.events == [.next(1, 1), .completed(2)])
    let delayed = TestScheduler(initialClock: 0)
    let observer = delayed.createObserver(Int.self)
    delayed.scheduleAt(0) {
      _ = delayed.schedule(()) {
        observer.onNext(delayed.clock)
        return Disposables.create()
      }
    }
    delayed.start()
    #expect(observer.events == [.next(1, 1)])
  }

  @Test("concatMap runs its selector when each value arrives: a throw fails the sequence at once")
  func concatMapSelectorRunsOnArrival() {
    struct Stop: Error {}
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(400)])
    let inner = scheduler.createColdObservable([.next(10, 100), .completed(100)])
    let res = scheduler.start {
      xs.concatMap { value -> Observable<Int> in
        if value == 2 { throw Stop() }
        return inner.asObservable()
      }
    }
    // Failed at 220, when the value arrived, not once the first inner sequence completed (at 310).
    #expect(res.events.count == 1)
    #expect(res.events.first?.time == 220)
    #expect(xs.subscriptions == [Subscription(200, 220)])
  }

  @Test("a timer due now fires one tick later on RxTest's scheduler, so take(for: 0) ends at the next tick")
  func zeroTimerTakesTheProcessingDelay() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .completed(230)])
    let res = scheduler.start { xs.take(for: .seconds(0), scheduler: scheduler) }
    #expect(res.events == [.completed(201)])
  }

  @Test("retry(when:) whose trigger ends before any error leaves the source running; the next error ends it")
  func retryWhenTriggerEndsFirst() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(220, 1), .completed(250)])
    let ended = scheduler.createHotObservable([.completed(210)]) as TestableObservable<Int>
    let res = scheduler.start(disposed: 300) { xs.retry { _ in ended } }
    #expect(res.events == [.next(220, 1), .completed(250)])
    struct Failure: Error {}
    let failing = scheduler.createHotObservable([.next(320, 2), .error(330, Failure())])
    let again = scheduler.createHotObservable([.completed(310)]) as TestableObservable<Int>
    let second = scheduler.start(created: 300, subscribed: 300, disposed: 400) { failing.retry { _ in again } }
    #expect(second.events == [.next(320, 2), .completed(330)])
  }

  @Test("observe(on:) RxTest's scheduler delivers one event per scheduled action: each a tick after the last")
  func observeOnDeliversOneEventPerAction() {
    let scheduler = TestScheduler(initialClock: 0)
    let res = scheduler.start { Single.just(1).observe(on: scheduler) }
    #expect(res.events == [.next(201, 1), .completed(202)])
  }

  @Test("sample sends the latest value at each sampler tick and at the sampler's end, completing after the source")
  func sampleEndsAsRxSwift() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(280)])
    let ticks = scheduler.createHotObservable([.next(250, "a"), .next(300, "b"), .completed(400)])
    let res = scheduler.start { xs.sample(ticks) }
    #expect(res.events == [.next(250, 1), .next(300, 2), .completed(300)])
    let later = TestScheduler(initialClock: 0)
    let ys = later.createHotObservable([.next(210, 1), .completed(450)])
    let stop = later.createHotObservable([.completed(400)]) as TestableObservable<String>
    let sampled = later.start { ys.sample(stop) }
    #expect(sampled.events == [.next(400, 1)], "the sampler's end samples; the source had not completed")
  }

  @Test("throttle's completion waits for the window's end and follows the value held for it, as RxSwift's")
  func throttleCompletionWaitsForTheWindow() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(250, 2), .completed(260)])
    let res = scheduler.start { xs.throttle(.seconds(100), scheduler: scheduler) }
    #expect(res.events == [.next(210, 1), .next(310, 2), .completed(310)])
  }
}

extension RxTestSwapTests {
  @Test("delay sends each event in an action of its own: a value and the completion that came together, a tick apart")
  func delaySendsOneEventPerAction() {
    let scheduler = TestScheduler(initialClock: 0)
    let maybe = scheduler.start { Maybe.just(1).delay(.seconds(2), scheduler: scheduler) }
    #expect(maybe.events == [.next(202, 1), .completed(203)])

    let spaced = TestScheduler(initialClock: 0)
    let xs = spaced.createHotObservable([.next(210, 1), .next(250, 2), .completed(300)])
    let res = spaced.start { xs.delay(.seconds(20), scheduler: spaced) }
    #expect(res.events == [.next(230, 1), .next(270, 2), .completed(320)])
    #expect(xs.subscriptions == [Subscription(200, 300)])
  }

  @Test("delay sends an error at once, dropping the values still waiting; disposing drops them too")
  func delaySendsErrorsAtOnce() {
    struct Failure: Error {}
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, Failure())])
    let res = scheduler.start { xs.delay(.seconds(50), scheduler: scheduler) }
    #expect(res.events.count == 1)
    #expect(res.events.first?.time == 230)

    let disposing = TestScheduler(initialClock: 0)
    let ys = disposing.createHotObservable([.next(210, 1), .next(220, 2)])
    let cut = disposing.start(disposed: 240) { ys.delay(.seconds(20), scheduler: disposing) }
    #expect(cut.events == [.next(230, 1)])
  }
}
