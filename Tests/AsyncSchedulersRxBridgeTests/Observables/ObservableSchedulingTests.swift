import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTesting
import Testing

/// Rx code on a `SerialDispatchQueueScheduler` whose core is a `TestScheduler`: every time operator on
/// virtual time, exact.
@Suite("Observable time operators on virtual time")
struct ObservableSchedulingTests {
  let test = TestScheduler()
  var rx: SerialDispatchQueueScheduler { SerialDispatchQueueScheduler(core: test) }

  /// Values pushed at virtual milliseconds, then completion.
  private func timeline(_ values: [(Int, Int)], completeAt end: Int) -> Observable<Int> {
    let rx = rx
    return Observable.merge(
      values.map { value, at in Observable.just(value).delaySubscription(.milliseconds(at), scheduler: rx) }
    ).concat(Observable<Int>.empty().delaySubscription(.milliseconds(0), scheduler: rx))
      .take(until: Observable<Int>.timer(.milliseconds(end), scheduler: rx))
  }

  @Test("timer sends 0 at the due time and then every period; interval starts after one period")
  func timerAndInterval() {
    let timer = Recorder<Int>(clock: test)
    let interval = Recorder<Int>(clock: test)
    let one = Observable<Int>.timer(.seconds(5), period: .seconds(2), scheduler: rx).subscribe(timer)
    let two = Observable<Int>.interval(.seconds(1), scheduler: rx).subscribe(interval)
    test.advance(by: .seconds(9))
    one.dispose()
    two.dispose()
    #expect(timer.trace == ["0@5000", "1@7000", "2@9000"])
    #expect(interval.trace.count == 9)
    #expect(interval.trace.first == "0@1000")
    let once = Recorder<Int>(clock: test)
    _ = Observable<Int>.timer(.milliseconds(100), scheduler: rx).subscribe(once)
    test.advance(by: .seconds(1))
    #expect(once.trace == ["0@9100", "completed@9100"])
  }

  @Test("skip(_:scheduler:) forwards a completion that comes within the skipped time, as RxSwift")
  func timedSkipForwardsAnEarlyEnd() {
    let recorder = Recorder<Int>(clock: test)
    _ = Observable<Int>.empty().delaySubscription(.seconds(1), scheduler: rx).skip(.seconds(5), scheduler: rx)
      .subscribe(recorder)
    test.advance(by: .seconds(10))
    #expect(recorder.trace == ["completed@1000"])
  }

  @Test("a zero period, as in RxSwift, sends each next value as soon as the previous one was sent")
  func zeroPeriodIsBackToBack() {
    let recorder = Recorder<Int>(clock: test)
    let subscription = Observable<Int>.interval(.seconds(0), scheduler: rx).take(5).subscribe(recorder)
    test.advance(by: .zero)
    subscription.dispose()
    #expect(recorder.trace == ["0@0", "1@0", "2@0", "3@0", "4@0", "completed@0"])
  }

  @Test("a negative period stops the program naming Observable.timer and the period")
  func negativePeriodTraps() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Observable<Int>.interval(.seconds(-1), scheduler: MainScheduler.instance)
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "Observable.timer: period must not be negative (got seconds(-1))"))
  }

  @Test("observe(on:) delivers on the scheduler, in order; subscribe(on:) subscribes there")
  func observeAndSubscribeOn() {
    let recorder = Recorder<Int>(clock: test)
    _ = Observable.of(1, 2).observe(on: rx).subscribe(recorder)
    #expect(recorder.trace.isEmpty)
    test.advance()
    #expect(recorder.trace == ["1@0", "2@0", "completed@0"])
    let subscribed = Log()
    _ = Observable<Int>.create { _ in
      subscribed("subscribed")
      return Disposables.create()
    }.subscribe(on: rx).subscribe(Recorder<Int>())
    #expect(subscribed.values.isEmpty)
    test.advance()
    #expect(subscribed.values == ["subscribed"])
  }

  @Test("subscribe(on:) a core-backed scheduler disposes upstream in a job of its own after the end, as RxSwift")
  func subscribeOnDisposesOnTheSchedulerAfterTheEnd() {
    let log = Log()
    _ = EndingUpstream(log: log).subscribe(on: rx).subscribe(
      onNext: { log("next \($0)") }, onCompleted: { log("completed") })
    #expect(test.step())
    // The subscription job sent the events; the upstream's subscription is disposed by a job of its own.
    #expect(log.values == ["next 1", "completed"])
    #expect(test.step())
    #expect(log.values == ["next 1", "completed", "disposed"])
  }

  @Test("delay shifts values and completion; delaySubscription shifts the subscription")
  func delays() {
    let subject = PublishSubject<Int>()
    let delayed = Recorder<Int>(clock: test)
    _ = subject.delay(.milliseconds(300), scheduler: rx).subscribe(delayed)
    subject.onNext(1)
    test.advance(by: .milliseconds(100))
    subject.onNext(2)
    subject.onCompleted()
    test.advance(by: .seconds(1))
    #expect(delayed.trace == ["1@300", "2@400", "completed@400"])
  }

  @Test("debounce sends after a pause, throttle the first and the latest of each window")
  func debounceAndThrottle() {
    let subject = PublishSubject<Int>()
    let debounced = Recorder<Int>(clock: test)
    let throttled = Recorder<Int>(clock: test)
    _ = subject.debounce(.milliseconds(100), scheduler: rx).subscribe(debounced)
    _ = subject.throttle(.milliseconds(100), scheduler: rx).subscribe(throttled)
    for (value, at) in [(1, 0), (2, 30), (3, 60), (4, 250)] {
      test.advance(to: .zero.advanced(by: .milliseconds(at)))
      subject.onNext(value)
    }
    test.advance(by: .seconds(1))
    #expect(debounced.trace == ["3@160", "4@350"])
    #expect(throttled.trace == ["1@0", "3@100", "4@250"])
  }

  @Test("timeout fails when a gap is longer than the due time; the other form switches")
  func timeouts() {
    let subject = PublishSubject<Int>()
    let failed = Recorder<Int>(clock: test)
    let switched = Recorder<Int>(clock: test)
    _ = subject.timeout(.milliseconds(200), scheduler: rx).subscribe(failed)
    _ = subject.timeout(.milliseconds(200), other: Observable.just(-1), scheduler: rx).subscribe(switched)
    test.advance(by: .milliseconds(150))
    subject.onNext(1)
    test.advance(by: .milliseconds(150))
    subject.onNext(2)
    test.advance(by: .seconds(1))
    subject.onNext(3)
    #expect(failed.trace == ["1@150", "2@300", "error(\(RxError.timeout))@500"])
    #expect(switched.trace == ["1@150", "2@300", "-1@500", "completed@500"])
  }

  @Test("buffer sends by time span or by count; sample sends the latest new value per tick")
  func bufferAndSample() {
    let subject = PublishSubject<Int>()
    let buffered = Recorder<[Int]>(clock: test)
    _ = subject.buffer(timeSpan: .milliseconds(100), count: 2, scheduler: rx).subscribe(buffered)
    subject.onNext(1)
    subject.onNext(2)
    subject.onNext(3)
    test.advance(by: .milliseconds(250))
    subject.onCompleted()
    #expect(buffered.trace == ["[1, 2]@0", "[3]@100", "[]@200", "[]@250", "completed@250"])

    let values = PublishSubject<Int>()
    let ticks = PublishSubject<Void>()
    let sampled = Recorder<Int>()
    _ = values.sample(ticks, defaultValue: 0).subscribe(sampled)
    values.onNext(5)
    ticks.onNext(())
    ticks.onNext(())
    #expect(sampled.trace == ["5", "0"])
  }

  @Test("take(for:) and skip(_:scheduler:) cut the sequence by time")
  func timeSlicing() {
    let taken = Recorder<Int>(clock: test)
    let skipped = Recorder<Int>(clock: test)
    let ticks = Observable<Int>.interval(.milliseconds(100), scheduler: rx)
    _ = ticks.take(for: .milliseconds(250), scheduler: rx).subscribe(taken)
    let skipping = ticks.skip(.milliseconds(250), scheduler: rx).take(2).subscribe(skipped)
    test.advance(by: .seconds(1))
    skipping.dispose()
    #expect(taken.trace == ["0@100", "1@200", "completed@250"])
    #expect(skipped.trace == ["2@300", "3@400", "completed@400"])
  }
}

@Suite("Observable bad input")
struct ObservableBadInputTests {
  @Test("Negative counts stop take, skip and range with a message naming the operator and the value")
  func negativeCounts() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Observable.of(1).take(-1)
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "Observable.take: count must not be negative (got -1)"))
  }
}

/// An observable type of the app's own (not made with `create`): it sends a value and the end when
/// subscribed, and its subscription lasts until disposed, as RxTest's observables do.
private struct EndingUpstream: ObservableType {
  typealias Element = Int
  let log: Log
  func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable where Observer.Element == Int {
    observer.onNext(1)
    observer.onCompleted()
    return Disposables.create { log("disposed") }
  }
}
