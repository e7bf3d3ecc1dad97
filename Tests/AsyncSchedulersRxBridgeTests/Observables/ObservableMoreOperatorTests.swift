import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTesting
import Foundation
import Testing

@Suite("Observable: nested sequences, arities, sharing scopes and schedulers without a core")
struct ObservableMoreOperatorTests {
  @Test("merge, switchLatest and concat of nested observables")
  func nested() {
    let nested = Observable.of(Observable.of(1, 2), Observable.of(3))
    #expect(trace(nested.merge()) == ["1", "2", "3", "completed"])
    #expect(trace(nested.concat()) == ["1", "2", "3", "completed"])
    #expect(trace(nested.switchLatest()) == ["1", "2", "3", "completed"])
  }

  @Test("combineLatest and zip of three sources, and first()")
  func arities() {
    #expect(
      trace(
        Observable.zip(Observable.of(1, 2), Observable.of("a", "b"), Observable.of(true, false)) { "\($0)\($1)\($2)" })
        == [
          "1atrue", "2bfalse", "completed",
        ])
    #expect(
      trace(Observable.combineLatest(Observable.of(1), Observable.of(2), Observable.of(3)) { $0 + $1 + $2 }) == [
        "6", "completed",
      ])
    #expect(trace(Observable.of(4, 5).first().asObservable()) == ["Optional(4)", "completed"])
    #expect(trace(Observable<Int>.empty().first().asObservable()) == ["nil", "completed"])
  }

  @Test("combineLatest completes only when every source has, also when one completed empty, as RxSwift")
  func combineLatestCompletesWhenAllHave() {
    let never = PublishSubject<Int>()
    #expect(trace(Observable.combineLatest(Observable<Int>.empty(), never.asObservable()) { $0 + $1 }) == [])
    #expect(trace(Observable.combineLatest([Observable<Int>.empty(), never.asObservable()])) == [])
    let six = Observable.combineLatest(
      Observable.of(1), Observable.of(2), Observable.of(3), Observable.of(4), Observable<Int>.empty(),
      never.asObservable()
    ) { $0 + $1 + $2 + $3 + $4 + $5 }
    #expect(trace(six) == [])
    // A value arriving after the other source completed without one: no pair can ever be made.
    let empty = PublishSubject<Int>()
    let late = PublishSubject<Int>()
    let recorder = Recorder<Int>()
    _ = Observable.combineLatest(empty, late) { $0 + $1 }.subscribe(recorder)
    empty.onCompleted()
    #expect(recorder.trace == [])
    late.onNext(1)
    #expect(recorder.trace == ["completed"])
    never.onCompleted()
    #expect(trace(Observable.combineLatest(Observable<Int>.empty(), never.asObservable()) { $0 + $1 }) == ["completed"])
  }

  @Test("share(scope: .forever) keeps its replay across connections; .whileConnected starts again")
  func shareScopes() {
    let subscriptions = Log()
    let source = Observable.of(1, 2).do(onSubscribe: { subscriptions("subscribed") })
    let forever = source.share(replay: 1, scope: .forever)
    #expect(trace(forever) == ["1", "2", "completed"])
    #expect(trace(forever) == ["2", "completed"])
    let whileConnected = source.share(replay: 1)
    #expect(trace(whileConnected) == ["1", "2", "completed"])
    #expect(trace(whileConnected) == ["1", "2", "completed"])
    // Each `.whileConnected` connection subscribes the source; `.forever`'s subject has ended, so its
    // second observer gets the replay and the end as it subscribes, and the source is not subscribed
    // again (RxSwift's refCount does not connect for an observer that has already ended).
    #expect(subscriptions.values.count == 3)
  }

  @Test("bind(to:) feeds observers and optional observers; mapObserver transforms")
  func binding() {
    let plain = Recorder<Int>()
    let optional = Recorder<Int?>()
    _ = Observable.of(1).bind(to: plain)
    _ = Observable.of(2).bind(to: optional)
    _ = Observable.of("3").bind(to: plain.mapObserver { Int($0)! })
    #expect(plain.trace == ["1", "completed", "3", "completed"])
    #expect(optional.trace == ["Optional(2)", "completed"])
  }

  @Test("observe(on:) and subscribe(on:) on a scheduler with no core go through its schedule, in order")
  func schedulerWithoutCore() async {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    let scheduler = OperationQueueScheduler(operationQueue: queue)
    let recorder = Recorder<Int>()
    let finished = Log()
    _ = Observable.from(Array(0..<100)).subscribe(on: scheduler).observe(on: scheduler)
      .do(onCompleted: { finished("done") }).subscribe(recorder)
    // Real threads are the point: wait for the end with a generous bound.
    let bound = ContinuousClock.now + .seconds(60)
    while finished.values.isEmpty && ContinuousClock.now < bound { await Task.yield() }
    #expect(recorder.trace == (0..<100).map { "\($0)" } + ["completed"])
  }

  @Test("from and just with a scheduler send each element in its own action")
  func fromWithScheduler() {
    let test = TestScheduler()
    let rx = SerialDispatchQueueScheduler(core: test)
    let recorder = Recorder<Int>()
    _ = Observable.from([1, 2], scheduler: rx).concat(Observable.just(3, scheduler: rx)).subscribe(recorder)
    #expect(recorder.trace.isEmpty)
    test.advance()
    #expect(recorder.trace == ["1", "2", "3", "completed"])
  }

  @Test("Completable.andThen continues with a Single or an Observable; Maybe.asSingle refuses empty")
  func traitChains() async throws {
    #expect(try await Completable.empty().andThen(Single.just(1)).value == 1)
    #expect(trace(Completable.empty().andThen(Observable.of(2))) == ["2", "completed"])
    await #expect(throws: RxError.self) { try await Maybe<Int>.empty().asSingle().value }
  }
}
