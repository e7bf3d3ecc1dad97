import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTestSupport
import Synchronization
import Testing

@Suite("Observable creation")
struct ObservableCreationTests {
  @Test("of, from and just deliver synchronously during subscribe, then complete")
  func synchronousSources() {
    let recorder = Recorder<Int>()
    _ = Observable.of(1, 2, 3).subscribe(recorder)
    _ = Observable.from([4]).subscribe(recorder)
    _ = Observable.just(5).subscribe(recorder)
    #expect(recorder.trace == ["1", "2", "3", "completed", "4", "completed", "5", "completed"])
  }

  @Test("from stops sending as soon as a take downstream has what it needs")
  func fromStopsWhenTheSubscriptionEnds() {
    let pulled = Mutex(0)
    let recorder = Recorder<Int>()
    _ = Observable.from(Array(0..<1000)).do(onNext: { _ in pulled.withLock { $0 += 1 } }).take(2)
      .subscribe(recorder)
    #expect(recorder.trace == ["0", "1", "completed"])
    #expect(pulled.withLock { $0 } == 2)

    let seen = Mutex(0)
    _ = Observable.from(Array(0..<1000)).do(onNext: { _ in seen.withLock { $0 += 1 } })
      .take(while: { $0 < 4 }).subscribe(onNext: { _ in })
    #expect(seen.withLock { $0 } == 5)
  }

  @Test("create runs per subscription, drops events after the end and disposes its resources once")
  func createKeepsTheGrammar() {
    let disposals = Log()
    let source = Observable<Int>.create { observer in
      observer.onNext(1)
      observer.onCompleted()
      observer.onNext(2)
      return Disposables.create { disposals("disposed") }
    }
    let first = Recorder<Int>()
    let second = Recorder<Int>()
    let subscription = source.subscribe(first)
    _ = source.subscribe(second)
    subscription.dispose()
    #expect(first.trace == ["1", "completed"])
    #expect(second.trace == ["1", "completed"])
    #expect(disposals.values == ["disposed", "disposed"])
  }

  @Test("empty, never, error and deferred behave as RxSwift's")
  func simpleSources() {
    let recorder = Recorder<Int>()
    _ = Observable<Int>.empty().subscribe(recorder)
    _ = Observable<Int>.never().subscribe(recorder)
    _ = Observable<Int>.error(TestError()).subscribe(recorder)
    _ = Observable<Int>.deferred { throw TestError(name: "factory") }.subscribe(recorder)
    _ = Observable<Int>.deferred { .just(7) }.subscribe(recorder)
    #expect(recorder.trace == ["completed", "error(boom)", "error(factory)", "7", "completed"])
  }

  @Test("range and generate count on the current-thread scheduler; repeatElement stops on disposal")
  func schedulerSources() {
    let recorder = Recorder<Int>()
    _ = Observable.range(start: 3, count: 3).subscribe(recorder)
    _ = Observable.generate(initialState: 1, condition: { $0 < 20 }, iterate: { $0 * 3 }).subscribe(recorder)
    _ = Observable.repeatElement(9).take(2).subscribe(recorder)
    #expect(recorder.trace == ["3", "4", "5", "completed", "1", "3", "9", "completed", "9", "9", "completed"])
  }

  @Test("ranges queued on one trampoline interleave a step at a time, as RxSwift's CurrentThreadScheduler runs them")
  func rangesInterleaveOnTheTrampoline() {
    let recorder = Recorder<Int>()
    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
      _ = Observable.range(start: 0, count: 3).subscribe(recorder)
      _ = Observable.range(start: 10, count: 3).subscribe(recorder)
      return Disposables.create()
    }
    #expect(recorder.trace == ["0", "10", "1", "11", "2", "12", "completed", "completed"])
  }

  @Test("an endless range on the trampoline stops when the subscription ends, and its stack does not grow")
  func endlessRangeStops() async {
    let recorder = Recorder<Int>()
    _ = Observable.range(start: 0, count: Int.max).take(3).subscribe(recorder)
    #expect(recorder.trace == ["0", "1", "2", "completed"])
    // Seconds of CPU: on a thread of its own, not one of the cooperative pool's (see onModelThread).
    let count = await onModelThread {
      var count = 0
      _ = Observable.range(start: 0, count: 1_000_000).subscribe(onNext: { _ in count += 1 })
      return count
    }
    #expect(count == 1_000_000)
  }

  @Test("subscribe(onNext:onError:onCompleted:onDisposed:) calls onDisposed once, after the end")
  func subscribeClosures() {
    let log = Log()
    let subscription = Observable.of(1, 2).subscribe(
      onNext: { log("next \($0)") }, onError: { log("error \($0)") }, onCompleted: { log("completed") },
      onDisposed: { log("disposed") })
    subscription.dispose()
    #expect(log.values == ["next 1", "next 2", "completed", "disposed"])
  }

  @Test("subscribe(with:) stops delivering once the object is gone")
  func subscribeWithObject() {
    final class Owner: Sendable {}
    let log = Log()
    let subject = PublishSubject<Int>()
    var owner: Owner? = Owner()
    let subscription = subject.subscribe(with: owner!, onNext: { _, value in log("\(value)") })
    subject.onNext(1)
    owner = nil
    subject.onNext(2)
    subscription.dispose()
    #expect(log.values == ["1"])
  }
}
