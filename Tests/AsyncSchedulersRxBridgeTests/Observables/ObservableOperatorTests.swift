import AsyncSchedulers
import AsyncSchedulersRxBridge
import Testing

@Suite("Observable operators without time")
struct ObservableOperatorTests {
  @Test("map, compactMap and filter transform; an error they throw fails the sequence and stops upstream")
  func transforms() {
    #expect(trace(Observable.of(1, 2, 3).map { $0 * 10 }) == ["10", "20", "30", "completed"])
    #expect(trace(Observable.of("1", "x", "3").compactMap { Int($0) }) == ["1", "3", "completed"])
    #expect(trace(Observable.of(1, 2, 3, 4).filter { $0.isMultiple(of: 2) }) == ["2", "4", "completed"])
    let pulled = Log()
    let source = Observable.of(1, 2, 3).do(onNext: { pulled("\($0)") })
    #expect(
      trace(
        source.map { value -> Int in
          if value == 2 { throw TestError() }
          return value
        }) == ["1", "error(boom)"])
    #expect(pulled.values == ["1", "2"])
  }

  @Test("a throw in a chain of fused stages fails once, delivers nothing after, and disposes the source once")
  func throwInFusedChainEndsTheSource() {
    let disposals = Log()
    let many = Observable<Int>.create { observer in
      for value in 0..<10_000 { observer.onNext(value) }
      observer.onCompleted()
      return Disposables.create { disposals("disposed") }
    }
    let chain = many.map { $0 + 1 }.filter { _ in true }.map { value -> Int in
      if value == 3 { throw TestError() }
      return value
    }.compactMap { $0 }
    #expect(trace(chain) == ["1", "2", "error(boom)"])
    #expect(disposals.values.count == 1)
  }

  @Test("scan, reduce, enumerated, toArray, distinctUntilChanged and startWith")
  func accumulate() {
    #expect(trace(Observable.of(1, 2, 3).scan(0, accumulator: +)) == ["1", "3", "6", "completed"])
    #expect(trace(Observable.of(1, 2, 3).reduce(10, accumulator: +)) == ["16", "completed"])
    #expect(
      trace(Observable.of("a", "b").enumerated().map { "\($0.index)\($0.element)" }) == ["0a", "1b", "completed"])
    #expect(trace(Observable.of(1, 2).toArray().asObservable()) == ["[1, 2]", "completed"])
    #expect(trace(Observable.of(1, 1, 2, 2, 1).distinctUntilChanged()) == ["1", "2", "1", "completed"])
    #expect(trace(Observable.of(3).startWith(1, 2)) == ["1", "2", "3", "completed"])
  }

  @Test("take, takeLast, take(while:behavior:), skip, skip(while:), element(at:) and ignoreElements")
  func slicing() {
    #expect(trace(Observable.of(1, 2, 3).take(2)) == ["1", "2", "completed"])
    #expect(trace(Observable.of(1, 2, 3).takeLast(2)) == ["2", "3", "completed"])
    #expect(trace(Observable.of(1, 2, 3, 1).take(while: { $0 < 2 })) == ["1", "completed"])
    #expect(trace(Observable.of(1, 2, 3).take(while: { $0 < 2 }, behavior: .inclusive)) == ["1", "2", "completed"])
    #expect(trace(Observable.of(1, 2, 3).skip(2)) == ["3", "completed"])
    #expect(trace(Observable.of(1, 2, 1).skip(while: { $0 < 2 })) == ["2", "1", "completed"])
    #expect(trace(Observable.of(5, 6, 7).element(at: 1)) == ["6", "completed"])
    #expect(trace(Observable.of(5).element(at: 3)) == ["error(\(RxError.argumentOutOfRange))"])
    #expect(trace(Observable.of(1, 2).ignoreElements()) == ["completed"])
  }

  @Test("take(until:) and skip(until:) follow the other sequence")
  func untilOther() {
    let values = PublishSubject<Int>()
    let trigger = PublishSubject<Void>()
    let taken = Recorder<Int>()
    let skipped = Recorder<Int>()
    _ = values.take(until: trigger).subscribe(taken)
    _ = values.skip(until: trigger).subscribe(skipped)
    values.onNext(1)
    trigger.onNext(())
    values.onNext(2)
    #expect(taken.trace == ["1", "completed"])
    #expect(skipped.trace == ["2"])
  }

  @Test("as RxSwift: take(until:) goes on when the other completes and fails with its error")
  func takeUntilEndsOfTheOther() {
    let values = PublishSubject<Int>()
    let completing = PublishSubject<Void>()
    let failing = PublishSubject<Void>()
    let onCompletion = Recorder<Int>()
    let onError = Recorder<Int>()
    _ = values.take(until: completing).subscribe(onCompletion)
    _ = values.take(until: failing).subscribe(onError)
    completing.onCompleted()
    failing.onError(RxError.timeout)
    values.onNext(1)
    values.onCompleted()
    #expect(onCompletion.trace == ["1", "completed"])
    #expect(onError.trace == ["error(\(RxError.timeout))"])
  }

  @Test("as RxSwift: skip(until:) ends silently when the source completes before the other sent a value")
  func skipUntilEndsSilently() {
    let values = PublishSubject<Int>()
    let trigger = PublishSubject<Void>()
    let skipped = Recorder<Int>()
    let disposed = Log()
    _ = values.do(onDispose: { disposed("source") }).skip(until: trigger.do(onDispose: { disposed("trigger") }))
      .subscribe(skipped)
    values.onNext(1)
    values.onCompleted()
    #expect(skipped.trace == [])
    #expect(Set(disposed.values) == ["source", "trigger"])
  }

  @Test("merge(maxConcurrent:) subscribes at most that many inner sequences; the others wait in order")
  func mergeWithAWidth() {
    let inners = (0..<3).map { _ in PublishSubject<Int>() }
    let outer = PublishSubject<Observable<Int>>()
    let merged = Recorder<Int>()
    _ = outer.merge(maxConcurrent: 2).subscribe(merged)
    for inner in inners { outer.onNext(inner.asObservable()) }
    outer.onCompleted()
    inners[2].onNext(30)
    inners[0].onNext(1)
    inners[1].onNext(2)
    inners[0].onCompleted()
    inners[2].onNext(31)
    inners[1].onCompleted()
    #expect(merged.trace == ["1", "2", "31"])
    inners[2].onCompleted()
    #expect(merged.trace == ["1", "2", "31", "completed"])
    #expect(trace(Observable.merge(AnyCollection([Observable.of(1), .of(2)]))) == ["1", "2", "completed"])
  }

  @Test("merge(maxConcurrent: 0) stops the program naming the operator and the value")
  func mergeWidthZeroTraps() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Observable<Observable<Int>>.empty().merge(maxConcurrent: 0)
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "Observable.merge(maxConcurrent:): maxConcurrent must be positive (got 0)"))
  }

  @Test("flatMap merges, flatMapLatest switches, flatMapFirst drops while busy, concatMap queues")
  func flattening() {
    let outer = PublishSubject<String>()
    let inners = ["a": PublishSubject<String>(), "b": PublishSubject<String>()]
    let merged = Recorder<String>()
    let latest = Recorder<String>()
    let first = Recorder<String>()
    let queued = Recorder<String>()
    _ = outer.flatMap { inners[$0]! }.subscribe(merged)
    _ = outer.flatMapLatest { inners[$0]! }.subscribe(latest)
    _ = outer.flatMapFirst { inners[$0]! }.subscribe(first)
    _ = outer.concatMap { inners[$0]! }.subscribe(queued)
    outer.onNext("a")
    outer.onNext("b")
    inners["a"]!.onNext("a1")
    inners["b"]!.onNext("b1")
    inners["a"]!.onCompleted()
    inners["b"]!.onNext("b2")
    #expect(merged.trace == ["a1", "b1", "b2"])
    #expect(latest.trace == ["b1", "b2"])
    #expect(first.trace == ["a1"])
    #expect(queued.trace == ["a1", "b2"])
  }

  @Test("concatMap of inner sequences that complete synchronously sends all, in order, without recursion")
  func concatMapSynchronous() {
    #expect(
      trace(Observable.range(start: 0, count: 3).concatMap { Observable.of($0, $0 * 10) }) == [
        "0", "0", "1", "10", "2", "20", "completed",
      ])
    let count = Recorder<Int>()
    _ = Observable.from(Array(0..<20_000)).concatMap { Observable.just($0) }.takeLast(1).subscribe(count)
    #expect(count.trace == ["19999", "completed"])
  }

  @Test("merge, concat, combineLatest, zip, withLatestFrom and amb")
  func combining() {
    #expect(trace(Observable.merge(.of(1), .of(2))) == ["1", "2", "completed"])
    #expect(trace(Observable.concat(.of(1), .of(2))) == ["1", "2", "completed"])
    let a = PublishSubject<Int>()
    let b = PublishSubject<String>()
    let latest = Recorder<String>()
    let zipped = Recorder<String>()
    let sampled = Recorder<String>()
    let first = Recorder<Int>()
    _ = Observable.combineLatest(a, b) { "\($0)\($1)" }.subscribe(latest)
    _ = Observable.zip(a, b) { "\($0)\($1)" }.subscribe(zipped)
    _ = a.withLatestFrom(b) { "\($0)\($1)" }.subscribe(sampled)
    let other = PublishSubject<Int>()
    _ = a.amb(other).subscribe(first)
    a.onNext(1)
    b.onNext("x")
    a.onNext(2)
    other.onNext(99)
    b.onNext("y")
    #expect(latest.trace == ["1x", "2x", "2y"])
    #expect(zipped.trace == ["1x", "2y"])
    #expect(sampled.trace == ["2x"])
    #expect(first.trace == ["1", "2"])
    #expect(trace(Observable.combineLatest([Observable.of(1), .of(2)])) == ["[1, 2]", "completed"])
  }

  @Test("catch, catchAndReturn, retry and retry(when:)")
  func errors() {
    let failing = Observable<Int>.concat(.of(1), .error(TestError()))
    #expect(trace(failing.catch { _ in .just(9) }) == ["1", "9", "completed"])
    #expect(trace(failing.catchAndReturn(8)) == ["1", "8", "completed"])
    #expect(trace(failing.retry(2)) == ["1", "1", "error(boom)"])
    let attempts = Log()
    let retried = Observable<Int>.deferred {
      attempts("attempt")
      return failing
    }.retry(when: { errors in errors.take(2).map { _ in () } })
    #expect(trace(retried) == ["1", "1", "1", "completed"])
    #expect(attempts.values.count == 3)
  }

  @Test("materialize and dematerialize round-trip the events")
  func materializing() {
    let events = Observable.of(1).materialize()
    #expect(trace(events) == ["next(1)", "completed", "completed"])
    #expect(trace(events.dematerialize()) == ["1", "completed"])
  }

  @Test("share(replay:) subscribes upstream once for concurrent observers and replays to late ones")
  func sharing() {
    let subscriptions = Log()
    let subject = PublishSubject<Int>()
    let shared = subject.do(onSubscribe: { subscriptions("subscribed") }).share(replay: 1)
    let first = Recorder<Int>()
    let late = Recorder<Int>()
    let one = shared.subscribe(first)
    subject.onNext(1)
    let two = shared.subscribe(late)
    subject.onNext(2)
    one.dispose()
    two.dispose()
    #expect(subscriptions.values == ["subscribed"])
    #expect(first.trace == ["1", "2"])
    #expect(late.trace == ["1", "2"])
  }

  @Test("publish connects on connect(); refCount connects with the first observer and disconnects with the last")
  func connectable() {
    let subscriptions = Log()
    let subject = PublishSubject<Int>()
    let published = subject.do(onSubscribe: { subscriptions("subscribed") }, onDispose: { subscriptions("disposed") })
      .publish()
    let recorder = Recorder<Int>()
    _ = published.subscribe(recorder)
    subject.onNext(0)
    let connection = published.connect()
    subject.onNext(1)
    connection.dispose()
    subject.onNext(2)
    #expect(recorder.trace == ["1"])
    let counted = subject.publish().refCount()
    let one = counted.subscribe(Recorder<Int>())
    let two = counted.subscribe(Recorder<Int>())
    #expect(subject.hasObservers)
    one.dispose()
    #expect(subject.hasObservers)
    two.dispose()
    #expect(!subject.hasObservers)
    #expect(subscriptions.values == ["subscribed", "disposed"])
  }
}
