// RxSwift code as apps write it (schedulers named in the code, no injection, no RxTest), tested under
// `@Test(.virtualTime)`: this file imports only what such a test imports.
import AsyncSchedulersRxBridge
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Foundation
import Testing

/// A search screen's view model written the RxSwift way: debounced on `MainScheduler.instance`, the
/// search on a background `SerialDispatchQueueScheduler`, results observed on the main scheduler.
@MainActor final class RxSearchViewModel {
  let query = BehaviorRelay<String>(value: "")
  private(set) var results: [String] = []
  private(set) var searches: [String] = []
  private let disposeBag = DisposeBag()

  init() {
    let background = SerialDispatchQueueScheduler(qos: .userInitiated)
    query.skip(1)
      .debounce(.milliseconds(300), scheduler: MainScheduler.instance)
      .distinctUntilChanged()
      .do(onNext: { [weak self] query in MainActor.assumeIsolated { self?.searches.append(query) } })
      .flatMapLatest { query in
        Observable.just(["\(query) 1", "\(query) 2"]).delay(.seconds(1), scheduler: background)
      }
      .observe(on: MainScheduler.instance)
      .subscribe(onNext: { [weak self] results in MainActor.assumeIsolated { self?.results = results } })
      .disposed(by: disposeBag)
  }
}

@Suite("RxSwift code on virtual time, with no RxTest")
struct RxOnVirtualTimeTests {
  @MainActor
  @Test(
    "MainScheduler callbacks and a main-actor task keep the device's order in every explored run: one main queue",
    .virtualTime(exploring: 50))
  func mainQueueIsOneLane() async throws {
    var log: [String] = []
    let logged = { @MainActor (entry: String) in log.append(entry) }
    _ = MainScheduler.asyncInstance.schedule(()) { _ in
      MainActor.assumeIsolated { logged("rx1") }
      return Disposables.create()
    }
    Task { @MainActor in logged("task") }
    _ = MainScheduler.asyncInstance.schedule(()) { _ in
      MainActor.assumeIsolated { logged("rx2") }
      return Disposables.create()
    }
    await TestScheduler.current!.settle()
    // The real main queue gives this order 200 times of 200: the scheduler's worker is one main-queue
    // block that runs both callbacks before the task's job.
    #expect(log == ["rx1", "rx2", "task"])
  }

  private var now: Duration { TestScheduler.current!.now.offset }

  @Test(
    "a view model on MainScheduler.instance and its own serial scheduler is exact under .virtualTime",
    .virtualTime)
  @MainActor func searchViewModel() async throws {
    let model = RxSearchViewModel()
    model.query.accept("sw")
    try await Task.sleep(for: .milliseconds(100))
    model.query.accept("swift")
    try await Task.sleep(for: .milliseconds(200))
    #expect(model.searches.isEmpty, "the debounce is due at 400 ms, not before")
    try await Task.sleep(for: .milliseconds(100))
    #expect(model.searches == ["swift"])
    try await Task.sleep(for: .milliseconds(900))
    #expect(model.results.isEmpty, "the search answers at 1,400 ms")
    try await Task.sleep(for: .milliseconds(100))
    #expect(model.results == ["swift 1", "swift 2"])
    #expect(now == .milliseconds(1_400))
  }

  @Test("seed 004's timer on MainScheduler.instance ticks at 5, 7 and 9 s of virtual time", .virtualTime)
  func seedTimerOnMainScheduler() async throws {
    var ticks: [String] = []
    let timer = Observable<Int>.timer(.seconds(5), period: .seconds(2), scheduler: MainScheduler.instance)
    for try await value in timer.take(3).values {
      ticks.append("\(value)@\(now)")
    }
    #expect(ticks == ["0@5.0 seconds", "1@7.0 seconds", "2@9.0 seconds"])
  }

  @Test(
    "an interval on a SerialDispatchQueueScheduler made in the test runs on the virtual clock",
    .virtualTime)
  func intervalOnOwnSerialScheduler() async throws {
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "ticks")
    let start = ContinuousClock.now
    let realStart = realUptimeNanoseconds()
    var ticks: [Int] = []
    for try await value in Observable<Int>.interval(.seconds(60), scheduler: scheduler).take(3).values {
      ticks.append(value)
    }
    #expect(ticks == [0, 1, 2])
    #expect(now == .seconds(180))
    #expect(ContinuousClock.now - start == .seconds(180), "ContinuousClock.now reads the virtual clock in the test")
    let realSeconds = Double(realUptimeNanoseconds() - realStart) / 1e9
    #expect(realSeconds < 60, "three minutes of virtual time take no real minute")
  }

  @Test(
    "observe(on: MainScheduler.instance) from the test's main-actor code runs inline when idle, as on a device",
    .virtualTime)
  @MainActor func mainSchedulerRunsInlineWhenIdle() {
    var received: [Int] = []
    let subscription = Observable.of(1, 2).observe(on: MainScheduler.instance).subscribe(onNext: { value in
      MainActor.assumeIsolated { received.append(value) }
    })
    #expect(received == [1, 2])
    subscription.dispose()
  }

  @Test("outside a scope, MainScheduler and a serial scheduler stay on real time")
  func realOutsideScopes() async throws {
    let start = ContinuousClock.now
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "real")
    for try await _ in Observable<Int>.timer(.milliseconds(50), scheduler: scheduler).values {}
    #expect(ContinuousClock.now - start >= .milliseconds(50))
  }
}
