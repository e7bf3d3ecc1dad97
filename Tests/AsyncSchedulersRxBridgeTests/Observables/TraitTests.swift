import AsyncSchedulers
import AsyncSchedulersRxBridge
import Testing

@Suite("Single, Maybe and Completable")
struct TraitTests {
  @Test("Single sends one value or an error; asSingle refuses empty and long sequences")
  func single() {
    let log = Log()
    _ = Single.just(1).map { $0 + 1 }.subscribe(onSuccess: { log("success \($0)") })
    _ = Single<Int>.create { single in
      single(.failure(TestError()))
      single(.success(2))
      return Disposables.create()
    }.subscribe(onSuccess: { log("success \($0)") }, onFailure: { log("failure \($0)") })
    _ = Observable<Int>.empty().asSingle().subscribe(onFailure: { log("empty \($0)") })
    _ = Observable.of(1, 2).asSingle().subscribe(onFailure: { log("long \($0)") })
    #expect(
      log.values == [
        "success 2", "failure boom", "empty \(RxError.noElements)", "long \(RxError.moreThanOneElement)",
      ])
  }

  @Test("Maybe ends with a value, empty, or an error; Completable with completion or an error")
  func maybeAndCompletable() {
    let log = Log()
    _ = Maybe.just(1).subscribe(onSuccess: { log("success \($0)") }, onCompleted: { log("empty") })
    _ = Maybe<Int>.empty().subscribe(onSuccess: { log("success \($0)") }, onCompleted: { log("empty") })
    _ = Completable.empty().andThen(Completable.error(TestError()))
      .subscribe(onCompleted: { log("completed") }, onError: { log("error \($0)") })
    _ = Observable.of(1, 2).ignoreElements().asCompletable().subscribe(onCompleted: { log("completed") })
    #expect(log.values == ["success 1", "empty", "error boom", "completed"])
  }

  @Test("values and Single.value bridge to async/await; an AsyncSequence becomes an Observable")
  func concurrency() async throws {
    var collected: [Int] = []
    for try await value in Observable.of(1, 2, 3).values { collected.append(value) }
    #expect(collected == [1, 2, 3])
    #expect(try await Single.just(5).value == 5)
    let stream = AsyncStream<Int> { continuation in
      continuation.yield(7)
      continuation.finish()
    }
    #expect(try await stream.asObservable().toArray().value == [7])
  }
}
