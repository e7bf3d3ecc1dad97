import AsyncSchedulers
import AsyncSchedulersRxBridge
import Dispatch
import Testing

@Suite("BlockingObservable (RxBlocking)")
struct BlockingObservableTests {
  @Test("toArray, first, last and single read a sequence to its end, as RxBlocking")
  func readsToTheEnd() throws {
    #expect(try Observable.of(1, 2, 3).toBlocking().toArray() == [1, 2, 3])
    #expect(try Observable.of(1, 2, 3).toBlocking().first() == 1)
    #expect(try Observable.of(1, 2, 3).toBlocking().last() == 3)
    #expect(try Observable<Int>.empty().toBlocking().first() == nil)
    #expect(try Observable.just(7).toBlocking().single() == 7)
    #expect(throws: RxError.self) { try Observable.of(1, 2).toBlocking().single() }
    #expect(throws: RxError.self) { try Observable<Int>.empty().toBlocking().single() }
    #expect(try Observable.of(1, 2, 3).toBlocking().single { $0 == 2 } == 2)
    // The read stops at the second match: later values of a synchronous source are not looked at.
    let seen = Log()
    #expect(throws: RxError.self) {
      try Observable.of(1, 2, 3, 4).toBlocking().single {
        seen("\($0)")
        return $0 >= 2
      }
    }
    #expect(seen.values == ["1", "2", "3"])
  }

  @Test("a value sent later from another thread ends the wait; first() ends the subscription at once")
  func waitsForOtherThreads() throws {
    let disposed = Log()
    let source = Observable<Int>.create { observer in
      DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { observer.onNext(5) }
      return Disposables.create { disposed("disposed") }
    }
    #expect(try source.toBlocking(timeout: 30).first() == 5)
    #expect(disposed.values == ["disposed"])
  }

  @Test("an error is thrown, and materialize reports it with the values before it")
  func errors() {
    let failing = Observable.of(1, 2).concat(Observable<Int>.error(RxError.overflow))
    #expect(throws: RxError.self) { try failing.toBlocking().toArray() }
    guard case .failed(let elements, let error) = failing.toBlocking().materialize() else {
      Issue.record("materialize did not fail")
      return
    }
    #expect(elements == [1, 2])
    #expect("\(error)" == "\(RxError.overflow)")
  }

  @Test("a sequence that never ends fails with RxError.timeout after the timeout, and is disposed")
  func timesOut() {
    let disposed = Log()
    let never = Observable<Int>.never().do(onDispose: { disposed("disposed") })
    let start = DispatchTime.now()
    guard case .failed([], let error) = never.toBlocking(timeout: 0.05).materialize() else {
      Issue.record("the wait did not time out")
      return
    }
    #expect("\(error)" == "\(RxError.timeout)")
    #expect(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds < 30_000_000_000)
    #expect(disposed.values == ["disposed"])
  }
}
