import AsyncSchedulers
import AsyncSchedulersRxBridge
import Testing

@Suite("Observable.zip ends as RxSwift's")
struct ObservableZipTests {
  @Test("zip of two completes only when both have completed, also when one completed with nothing waiting")
  func twoSourcesCompleteWhenBothHave() {
    let never = PublishSubject<Int>()
    let empty = PublishSubject<Int>()
    let recorder = Recorder<Int>()
    _ = Observable.zip(never, empty) { $0 + $1 }.subscribe(recorder)
    empty.onCompleted()
    #expect(recorder.trace == [], "the other source may still send: no completion yet")
    never.onCompleted()
    #expect(recorder.trace == ["completed"])
  }

  @Test("zip of a collection completes once a value can never be paired: every other source completed")
  func collectionCompletesOnAnUnpairableValue() {
    let sources = (0..<3).map { _ in PublishSubject<Int>() }
    let recorder = Recorder<[Int]>()
    _ = Observable.zip(sources.map { $0.asObservable() }).subscribe(recorder)
    sources[0].onNext(1)
    sources[1].onNext(2)
    sources[2].onNext(3)
    sources[0].onCompleted()
    sources[2].onCompleted()
    #expect(recorder.trace == ["[1, 2, 3]"])
    sources[1].onNext(9)  // Can never be paired.
    #expect(recorder.trace == ["[1, 2, 3]", "completed"])
  }

  @Test("zip of a collection with a selector sends the selector's results; an empty collection completes at once")
  func collectionSelectorAndEmpty() {
    #expect(
      trace(Observable.zip([Observable.of(1, 2), .of(10, 20)]) { $0.reduce(0, +) }) == ["11", "22", "completed"])
    #expect(trace(Observable<Int>.zip([])) == ["completed"])
    #expect(trace(Observable.combineLatest([Observable<Int>]()) { $0.count }) == ["0", "completed"])
  }

  @Test("Single.zip of no singles succeeds with an empty array, as RxSwift")
  func singleZipOfNothing() {
    #expect(trace(Single<Int>.zip([Single<Int>]())) == ["[]", "completed"])
    #expect(trace(Single<Int>.zip([Single<Int>]()) { $0.count }) == ["0", "completed"])
  }
}
