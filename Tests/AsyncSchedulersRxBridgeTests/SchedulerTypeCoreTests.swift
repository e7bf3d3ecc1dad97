import AsyncSchedulers
import AsyncSchedulersTestSupport
import Foundation
import Testing

@testable import AsyncSchedulersRxBridge

/// Timed operators on Rx schedulers that run on no core scheduler (`HistoricalScheduler`,
/// `VirtualTimeScheduler` with a converter of its own): their timers go through the Rx scheduler, so
/// they fire when the test drives it, at their exact virtual times.
@Suite("Timed operators on VirtualTimeScheduler and HistoricalScheduler")
struct SchedulerTypeCoreTests {
  /// A recorder of events with the historical scheduler's seconds.
  final class Trace: Sendable {
    let log = Log()
    let scheduler: HistoricalScheduler
    /// Times are shown as seconds since this date.
    let origin: Double
    init(_ scheduler: HistoricalScheduler, origin: Double = 0) {
      self.scheduler = scheduler
      self.origin = origin
    }
    func record<Element>(_ event: Event<Element>) {
      let time = (scheduler.seconds - origin).formatted(.number.precision(.fractionLength(0...3)))
      switch event {
      case .next(let value): log("\(value)@\(time)")
      case .completed: log("completed@\(time)")
      case .error(let error): log("error(\(error))@\(time)")
      }
    }
  }

  @Test("Seed 004's timer on a HistoricalScheduler ticks at 5, 7 and 9 seconds, and start() ends once it is disposed")
  func seedTimer() {
    let scheduler = HistoricalScheduler()
    let trace = Trace(scheduler)
    let bag = DisposeBag()
    Observable<Int>.timer(.seconds(5), period: .seconds(2), scheduler: scheduler)
      .take(3)
      .subscribe { trace.record($0) }
      .disposed(by: bag)
    scheduler.start()
    #expect(trace.log.values == ["0@5", "1@7", "2@9", "completed@9"])
    #expect(scheduler.seconds == 9)
  }

  @Test("interval on a HistoricalScheduler ticks on its grid as the test advances it")
  func intervalAdvancing() {
    let scheduler = HistoricalScheduler()
    let trace = Trace(scheduler)
    let subscription = Observable<Int>.interval(.milliseconds(250), scheduler: scheduler).subscribe { trace.record($0) }
    scheduler.advanceTo(Date(timeIntervalSince1970: 1))
    #expect(trace.log.values == ["0@0.25", "1@0.5", "2@0.75", "3@1"])
    subscription.dispose()
    scheduler.start()
    #expect(trace.log.values.count == 4)
    #expect(scheduler.seconds == 1)
  }

  @Test(
    "delay, debounce and timeout on a HistoricalScheduler fire at their exact virtual times, from 1970 and from a present-day date",
    arguments: [0, 1_764_288_000.0])
  func delayDebounceTimeout(origin: Double) {
    let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: origin))
    let delayed = Trace(scheduler, origin: origin)
    let debounced = Trace(scheduler, origin: origin)
    let timedOut = Trace(scheduler, origin: origin)
    let subject = PublishSubject<Int>()
    let bag = DisposeBag()
    subject.delay(.milliseconds(300), scheduler: scheduler).subscribe { delayed.record($0) }.disposed(by: bag)
    subject.debounce(.milliseconds(500), scheduler: scheduler).subscribe { debounced.record($0) }.disposed(by: bag)
    Observable<Int>.never().timeout(.seconds(2), scheduler: scheduler).subscribe { timedOut.record($0) }
      .disposed(by: bag)
    for (value, at) in [(1, 0.1), (2, 0.4), (3, 1.5)] {
      _ = scheduler.scheduleAbsoluteVirtual(value, time: Date(timeIntervalSince1970: origin + at)) { value in
        subject.onNext(value)
        return Disposables.create()
      }
    }
    scheduler.advanceTo(Date(timeIntervalSince1970: origin + 3))
    #expect(delayed.log.values == ["1@0.4", "2@0.7", "3@1.8"])
    #expect(debounced.log.values == ["2@0.9", "3@2"])
    #expect(timedOut.log.values.count == 1)
    #expect(timedOut.log.values.first?.hasSuffix("@2") == true)
  }

  @Test("A subscription disposed before its timer leaves the clock alone: start() skips the timer without moving to it")
  func disposedTimerIsSkipped() {
    let scheduler = HistoricalScheduler()
    let trace = Trace(scheduler)
    let subscription = Observable.just(1).delay(.seconds(100), scheduler: scheduler).subscribe { trace.record($0) }
    subscription.dispose()
    scheduler.start()
    #expect(trace.log.values.isEmpty)
    #expect(scheduler.seconds == 0)
  }

  @Test("A disposed subscription releases what its timers held, while the scheduler lives on")
  func disposalReleasesCaptures() {
    let counter = LifetimeCounter()
    let scheduler = HistoricalScheduler()
    do {
      let token = counter.make()
      let subscription = Observable<Int>.interval(.seconds(1), scheduler: scheduler)
        .subscribe(onNext: { _ in withExtendedLifetime(token) {} })
      scheduler.advanceTo(Date(timeIntervalSince1970: 2))
      subscription.dispose()
    }
    #expect(counter.count == 0)
    withExtendedLifetime(scheduler) {}
  }

  /// Virtual time in whole ticks of 10 ms, as a test would write its own converter.
  struct TickConverter: VirtualTimeConverterType {
    func convertFromVirtualTime(_ virtualTime: Int) -> RxTime { Date(timeIntervalSince1970: Double(virtualTime) / 100) }
    func convertToVirtualTime(_ time: RxTime) -> Int { Int((time.timeIntervalSince1970 * 100).rounded()) }
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
      Double(virtualTimeInterval) / 100
    }
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int { Int((timeInterval * 100).rounded()) }
    func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }
    func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
      lhs < rhs ? .lessThan : lhs > rhs ? .greaterThan : .equal
    }
  }

  @Test(
    "throttle on a VirtualTimeScheduler with a converter of its own lets the first value through and the latest at the window's end"
  )
  func throttleWithCustomConverter() {
    let scheduler = VirtualTimeScheduler(initialClock: 0, converter: TickConverter())
    let log = Log()
    let subject = PublishSubject<Int>()
    let subscription = subject.throttle(.milliseconds(100), scheduler: scheduler).subscribe(onNext: { value in
      log("\(value)@\(scheduler.clock)")
    })
    for (value, tick) in [(1, 1), (2, 3), (3, 5)] {
      _ = scheduler.scheduleAbsoluteVirtual(value, time: tick) { value in
        subject.onNext(value)
        return Disposables.create()
      }
    }
    scheduler.advanceTo(50)
    subscription.dispose()
    #expect(log.values == ["1@1", "3@11"])
  }

  @Test("A task preferring the native view of a HistoricalScheduler runs its jobs when the test drives the scheduler")
  func taskPrefersTheNativeView() async {
    let scheduler = HistoricalScheduler()
    let core = SchedulerTypeCore(scheduler)
    let log = Log()
    let task = Task(executorPreference: core) { log("ran") }
    #expect(log.values.isEmpty)
    scheduler.start()
    await task.value
    #expect(log.values == ["ran"])
  }
}
