import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTesting
import AsyncSignals
import Foundation
import Testing

/// The migration advice as written: native signals with RxSwift's schedulers, no `.core` at the call site.
@Suite("Native signals take RxSwift's schedulers")
struct SignalRxSchedulerTests {
  let test = TestScheduler()
  var rx: SerialDispatchQueueScheduler { SerialDispatchQueueScheduler(core: test) }

  @Test("Signal.timer and Signal.interval run on an Rx scheduler's core, on its virtual time")
  func timerAndInterval() {
    let log = Log()
    let timer = Signal<Int, Never>.timer(after: .seconds(5), period: .seconds(2), on: rx)
      .subscribe { event in if case .next(let tick) = event { log("timer \(tick)@\(test.now)") } }
    let interval = Signal<SchedulerInstant, Never>.interval(.seconds(3), on: rx)
      .subscribe { event in if case .next(let now) = event { log("interval @\(now)") } }
    test.advance(by: .seconds(7))
    timer.dispose()
    interval.dispose()
    #expect(
      log.values == ["interval @3.0 seconds", "timer 0@5.0 seconds", "interval @6.0 seconds", "timer 1@7.0 seconds"])
  }

  @Test("debounce, throttle, delay, observe(on:) and timeout take an Rx scheduler")
  func operators() {
    let log = Log()
    let input = SignalSubject<Int, Never>()
    let signal = input.signal
    let debounced = signal.debounce(for: .milliseconds(300), on: rx).subscribe { event in
      if case .next(let value) = event { log("debounced \(value)@\(test.now)") }
    }
    let delayed = signal.delay(.seconds(1), on: rx).observe(on: rx).subscribe { event in
      if case .next(let value) = event { log("delayed \(value)@\(test.now)") }
    }
    input.send(1)
    test.advance(by: .milliseconds(100))
    input.send(2)
    test.advance(by: .seconds(2))
    debounced.dispose()
    delayed.dispose()
    #expect(log.values == ["debounced 2@0.4 seconds", "delayed 1@1.0 seconds", "delayed 2@1.1 seconds"])
  }

  @Test("Signal.timer on a HistoricalScheduler follows its clock: it ticks when the test advances it")
  func timerOnHistoricalScheduler() {
    let scheduler = HistoricalScheduler()
    let log = Log()
    let timer = Signal<Int, Never>.timer(after: .seconds(5), period: .seconds(2), on: scheduler)
      .subscribe { event in if case .next(let tick) = event { log("\(tick)@\(scheduler.seconds)") } }
    scheduler.advanceTo(Date(timeIntervalSince1970: 9))
    timer.dispose()
    #expect(log.values == ["0@5.0", "1@7.0", "2@9.0"])
  }

  @Test("A native operator given a scheduler that cannot tell time stops with a message naming the API and scheduler")
  func schedulerWithoutCore() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.just(1).observe(on: OperationQueueScheduler(operationQueue: OperationQueue()))
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "Signal.observe(on:): the scheduler OperationQueueScheduler runs on no core scheduler"))
  }
}

/// Compiled, not run: the seed's scheduler on the native timer, as Migration.md advises.
func nativeTimerOnMainScheduler() -> Signal<Int, Never> {
  Signal<Int, Never>.timer(after: .seconds(5), period: .seconds(2), on: MainScheduler.instance)
}
