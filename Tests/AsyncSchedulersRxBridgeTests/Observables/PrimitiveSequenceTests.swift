import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTesting
import Testing

@Suite("Traits' shared operators: delay, catch, retry, timeout, deferred, using, zip, concat")
struct PrimitiveSequenceTests {
  let test = TestScheduler()
  var rx: SerialDispatchQueueScheduler { SerialDispatchQueueScheduler(core: test) }

  private func trace<Trait: ObservableConvertibleType>(_ trait: Trait) -> [String] where Trait.Element: Sendable {
    let recorder = Recorder<Trait.Element>(clock: test)
    _ = trait.asObservable().subscribe(recorder)
    test.advance(by: .seconds(10))
    return recorder.trace
  }

  @Test("delay, delaySubscription and timeout keep the trait and run on the scheduler's time")
  func timeOperators() {
    #expect(trace(Single.just(1).delay(.seconds(2), scheduler: rx)) == ["1@2000", "completed@2000"])
    #expect(trace(Maybe<Int>.empty().delaySubscription(.seconds(1), scheduler: rx)) == ["completed@11000"])
    let timedOut = trace(Single<Int>.never().timeout(.seconds(3), scheduler: rx))
    #expect(timedOut == ["error(\(RxError.timeout))@23000"])
    #expect(trace(Completable.never().timeout(.seconds(1), other: .empty(), scheduler: rx)) == ["completed@31000"])
  }

  @Test("catch and retry replace or repeat a failed trait; deferred makes one per subscription")
  func errorsAndDeferred() {
    let attempts = Log()
    let failing = Single<Int>.deferred {
      attempts("attempt")
      return attempts.values.count < 3 ? .error(RxError.unknown) : .just(3)
    }
    #expect(trace(failing.retry(3)) == ["3@0", "completed@0"])
    #expect(attempts.values.count == 3)
    #expect(trace(Maybe<Int>.error(RxError.unknown).catch { _ in .just(9) }) == ["9@10000", "completed@10000"])
  }

  @Test("zip of traits sends the combination once each has sent its value; Completable.zip and concat end")
  func zipAndConcat() {
    let pair = Single.zip(Single.just(1), Single.just("a"))
    #expect(trace(pair.map { "\($0.0)\($0.1)" }) == ["1a@0", "completed@0"])
    let one = Single.just(1)
    let many = Single.zip(one, one, one, one, one, one, one, one) {
      (a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int) -> Int in
      [a, b, c, d, e, f, g, h].reduce(0, +)
    }
    #expect(trace(many) == ["8@10000", "completed@10000"])
    #expect(trace(Single.zip([Single.just(1), .just(2)])) == ["[1, 2]@20000", "completed@20000"])
    #expect(trace(Maybe.zip(Maybe.just(1), Maybe<Int>.empty()) { $0 + $1 }) == ["completed@30000"])
    let order = Log()
    let first = Completable.create { done in
      order("first")
      done(.completed)
      return Disposables.create()
    }
    let second = Completable.create { done in
      order("second")
      done(.completed)
      return Disposables.create()
    }
    #expect(trace(Completable.concat(first, second)) == ["completed@40000"])
    #expect(trace(Completable.zip(first, .error(RxError.overflow))) == ["error(\(RxError.overflow))@50000"])
    #expect(order.values == ["first", "second", "first"])
  }

  @Test("the traits' own operators give RxSwift's trait: filter and compactMap make a Maybe, ifEmpty a Single")
  func traitOperators() {
    #expect(trace(Single.just(1).filter { $0 > 1 }) == ["completed@0"])
    #expect(trace(Single.just("7").compactMap { Int($0) }) == ["7@10000", "completed@10000"])
    #expect(trace(Maybe<Int>.empty().ifEmpty(default: 3)) == ["3@20000", "completed@20000"])
    #expect(trace(Maybe<Int>.empty().ifEmpty(switchTo: Maybe.just(4))) == ["4@30000", "completed@30000"])
    #expect(trace(Maybe<Int>.error(RxError.unknown).catchAndReturn(5)) == ["5@40000", "completed@40000"])
    #expect(trace(Single.just(1).flatMapMaybe { _ in Maybe<Int>.empty() }) == ["completed@50000"])
    #expect(trace(Single.just(1).flatMapCompletable { _ in .empty() }) == ["completed@60000"])
    #expect(trace(Single<Int>.timer(.seconds(2), scheduler: rx)) == ["0@72000", "completed@72000"])
    let events = Log()
    _ = Maybe.just(1).subscribe { events("\($0)") }
    _ = Maybe<Int>.empty().subscribe { events("\($0)") }
    _ = Completable.empty().concat(.empty()).subscribe { events("\($0)") }
    let done = Log()
    _ = Single.just(2).do(onSuccess: { done("success \($0)") }).asCompletable().subscribe()
    #expect(events.values == ["success(1)", "completed", "completed"])
    #expect(done.values == ["success 2"])
  }

  @Test("andThen a Maybe, retry(when:), just on a scheduler and zip of a collection with a selector")
  func moreTraitForms() {
    #expect(trace(Completable.empty().andThen(Maybe.just(1))) == ["1@0", "completed@0"])
    let attempts = Log()
    let retried = Single<Int>.deferred {
      attempts("attempt")
      return attempts.values.count < 2 ? .error(RxError.unknown) : .just(2)
    }.retry { errors in errors }
    #expect(trace(retried) == ["2@10000", "completed@10000"])
    #expect(trace(Maybe.just(3, scheduler: rx)) == ["3@20000", "completed@20000"])
    #expect(trace(Single.zip([Single.just(1), .just(2)]) { $0.reduce(0, +) }) == ["3@30000", "completed@30000"])
  }

  final class Resource: Disposable, Sendable {
    let log: Log
    init(_ log: Log) { self.log = log }
    func dispose() { log("disposed") }
  }

  @Test("using makes a resource per subscription and disposes it after the trait ends")
  func using() {
    let log = Log()
    let single = Single.using({ Resource(log) }, primitiveSequenceFactory: { _ in Single.just(5) })
    #expect(trace(single) == ["5@0", "completed@0"])
    #expect(log.values == ["disposed"])
  }
}
