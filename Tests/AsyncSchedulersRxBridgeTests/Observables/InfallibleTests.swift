import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTesting
import Testing

private struct Failure: Error {}

@Suite("Infallible")
struct InfallibleTests {
  @Test("create, just, of, from, empty and never send values and a completion, never an error")
  func creation() {
    let log = Log()
    _ = Infallible<Int>.create { send in
      send(.next(1))
      send(.completed)
      send(.next(2))  // after the end: ignored
      return Disposables.create()
    }.subscribe(onNext: { log("create \($0)") }, onCompleted: { log("create end") })
    _ = Infallible.just(3).subscribe(onNext: { log("just \($0)") })
    _ = Infallible.of(4, 5).subscribe(onNext: { log("of \($0)") })
    _ = Infallible.from([6]).subscribe(onNext: { log("from \($0)") })
    _ = Infallible<Int>.empty().subscribe(onCompleted: { log("empty end") })
    _ = Infallible<Int>.never().subscribe(onNext: { log("never \($0)") }, onCompleted: { log("never end") })
    #expect(
      log.values == ["create 1", "create end", "just 3", "of 4", "of 5", "from 6", "empty end"])
  }

  @Test("asInfallible turns an error into a last value, a fallback sequence, or a recovery")
  func fromFailableSequences() {
    let log = Log()
    let failing = Observable<Int>.create { observer in
      observer.onNext(1)
      observer.onError(Failure())
      return Disposables.create()
    }
    _ = failing.asInfallible(onErrorJustReturn: -1)
      .subscribe(onNext: { log("just \($0)") }, onCompleted: { log("just end") })
    _ = failing.asInfallible(onErrorFallbackTo: .of(7, 8))
      .subscribe(onNext: { log("fallback \($0)") }, onCompleted: { log("fallback end") })
    _ = failing.asInfallible(onErrorRecover: { error in .just(error is Failure ? 9 : 0) })
      .subscribe(onNext: { log("recover \($0)") })
    #expect(
      log.values == [
        "just 1", "just -1", "just end", "fallback 1", "fallback 7", "fallback 8", "fallback end", "recover 1",
        "recover 9",
      ])
  }

  @Test("Operators keep the sequence infallible: map, filter, scan, startWith, flatMap, take, skip, merge")
  func operators() {
    let log = Log()
    _ = Infallible.of(1, 2, 3, 4).map { $0 * 10 }.filter { $0 > 10 }.scan(0, accumulator: +).startWith(-1)
      .subscribe(onNext: { log("chain \($0)") })
    _ = Infallible.of(1, 2).flatMap { Infallible.of($0, $0) }.take(3).skip(1)
      .subscribe(onNext: { log("flat \($0)") })
    _ = Infallible.merge(.just(1), .just(2)).subscribe(onNext: { log("merge \($0)") })
    _ = Infallible.combineLatest(Infallible.just(1), Infallible.just("a")) { "\($0)\($1)" }
      .subscribe(onNext: { log("latest \($0)") })
    #expect(
      log.values == [
        "chain -1", "chain 20", "chain 50", "chain 90", "flat 1", "flat 2", "merge 1", "merge 2", "latest 1a",
      ])
  }

  @Test("Infallible.interval and debounce run on the scheduler's virtual time")
  func timeOperators() {
    let test = TestScheduler()
    let rx = SerialDispatchQueueScheduler(core: test)
    let ticks = Log()
    let subscription = Infallible<Int>.interval(.seconds(1), scheduler: rx)
      .debounce(.milliseconds(500), scheduler: rx)
      .subscribe(onNext: { ticks("\($0)@\(test.now)") })
    test.advance(by: .milliseconds(3_600))
    subscription.dispose()
    // Each tick is followed by the next one a second later, after the debounce's 0.5 s: all pass.
    #expect(ticks.values == ["0@1.5 seconds", "1@2.5 seconds", "2@3.5 seconds"])
  }

  @Test("An Infallible is an ObservableConvertibleType: it binds and converts back to an Observable")
  func convertsBack() {
    let log = Log()
    let relay = PublishRelay<Int>()
    _ = relay.subscribe(onNext: { log("relay \($0)") })
    _ = Infallible.of(1, 2).bind(to: relay)
    _ = Infallible.just(3).asObservable().subscribe(onNext: { log("observable \($0)") })
    #expect(log.values == ["relay 1", "relay 2", "observable 3"])
  }

  @Test("Infallible.from takes any sequence, values iterate without throwing, combineLatest of three makes tuples")
  func sequencesValuesAndArity() async {
    var sum = 0
    for await value in Infallible.from(1...4).values { sum += value }
    #expect(sum == 10)
    let combined = Infallible.combineLatest(Infallible.just(1), Infallible.just("a"), Infallible.just(true))
    #expect(trace(combined.map { "\($0)\($1)\($2)" }) == ["1atrue", "completed"])
  }

  @Test("relays convert to Infallible, and observables bind to relays of optional values")
  func relaysAsInfallibleAndOptionalBinding() {
    let behavior = BehaviorRelay<Int?>(value: nil)
    _ = Observable.of(1, 2).bind(to: behavior)
    #expect(behavior.value == 2)
    let log = Log()
    _ = behavior.asInfallible().subscribe(onNext: { log("\($0.map(String.init) ?? "nil")") })
    #expect(log.values == ["2"])
  }
}
