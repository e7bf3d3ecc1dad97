import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTesting
import AsyncSignals
import Foundation
import Testing

/// Rx schedulers where Swift concurrency or native code expects a `Scheduler`, a `Clock` or a task
/// executor: no `.core` at the call site.
@Suite("Rx schedulers as native schedulers")
struct RxCoreBackedSchedulerTests {
  @Test(
    "A task that prefers a SerialDispatchQueueScheduler runs on its core: on a TestScheduler core, when the test drives it"
  )
  func taskPrefersSerialScheduler() async {
    let test = TestScheduler()
    let rx = SerialDispatchQueueScheduler(core: test)
    let task = Task(executorPreference: rx) { test.isIsolatingCurrentContext() == true }
    #expect(test.pendingCount == 1)
    test.advance()
    #expect(await task.value)
  }

  @Test("async let children under withTaskExecutorPreference(ConcurrentDispatchQueueScheduler) run on its core")
  func childrenPreferConcurrentScheduler() async {
    let rx = ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "rx.concurrent", attributes: .concurrent))
    let core = rx.core
    let onCore = await withTaskExecutorPreference(rx) {
      async let first = Schedulers.current === core
      async let second = Schedulers.current === core
      return await [first, second]
    }
    #expect(onCore == [true, true])
  }

  @Test("A task that prefers MainScheduler.instance runs on the main actor")
  func taskPrefersMainScheduler() async {
    // `assumeIsolated` stops the program unless the code runs isolated to the main actor.
    let onMain = await Task(executorPreference: MainScheduler.instance) { isOnMainActor() }.value
    #expect(onMain)
  }

  @Test("Rx code reading now on a concrete Rx scheduler still gets RxSwift's Date")
  func rxNowIsADate() {
    let before = Date()
    let mainNow = MainScheduler.instance.now
    let serialNow = SerialDispatchQueueScheduler(qos: .default).now
    let concurrentNow = ConcurrentDispatchQueueScheduler(qos: .default).now
    let concurrentMainNow = ConcurrentMainScheduler.instance.now
    let dates: [Date] = [mainNow, serialNow, concurrentNow, concurrentMainNow]
    #expect(dates.allSatisfy { $0 >= before && $0.timeIntervalSince(before) < 60 })
    func rxNow(_ scheduler: some SchedulerType) -> Date { scheduler.now }
    #expect(rxNow(MainScheduler.instance) >= before)
  }

  @Test("Code holding an Rx scheduler as a native Scheduler or Clock reads its core's instant")
  func nativeNowIsTheCoresInstant() {
    let test = TestScheduler()
    test.advance(by: .seconds(5))
    let rx = SerialDispatchQueueScheduler(core: test)
    func nativeNow(_ scheduler: some Scheduler) -> SchedulerInstant { scheduler.now }
    func clockNow<C: Clock>(_ clock: C) -> C.Instant { clock.now }
    let existential: any Scheduler = rx
    #expect(nativeNow(rx) == test.now)
    #expect(clockNow(rx) == test.now)
    #expect(existential.now == test.now)
    #expect(existential.name == test.name)
  }

  @Test("schedule, schedule(after:), execute and scheduleRepeating on an Rx scheduler run on its core, on its clock")
  func callbacksRunOnTheCore() {
    let test = TestScheduler()
    let serial = SerialDispatchQueueScheduler(core: test)
    let log = Log()
    serial.schedule { log("schedule@\(test.now)") }
    serial.execute { log("execute@\(test.now)") }
    serial.schedule(after: .seconds(2)) { log("after@\(test.now)") }
    let cancelled = serial.schedule(after: .seconds(1)) { log("cancelled") }
    cancelled.dispose()
    let repeating = serial.scheduleRepeating(every: .seconds(3)) { log("tick@\(test.now)") }
    test.advance(by: .seconds(7))
    repeating.dispose()
    #expect(
      log.values == [
        "schedule@0.0 seconds", "execute@0.0 seconds", "after@2.0 seconds", "tick@3.0 seconds", "tick@6.0 seconds",
      ])
  }

  @Test(
    "Task.sleep(for:clock:) on MainScheduler.instance sleeps on the test's virtual clock under .virtualTime",
    .virtualTime)
  func taskSleepOnMainScheduler() async throws {
    let start = TestScheduler.current!.now
    try await Task.sleep(for: .seconds(30), clock: MainScheduler.instance)
    #expect(TestScheduler.current!.now == start.advanced(by: .seconds(30)))
    let native: any Scheduler = MainScheduler.instance
    #expect(native.now == start.advanced(by: .seconds(30)), "the main scheduler's native clock is the test's")
  }

  @Test("Cancelling a task sleeping on an Rx scheduler throws CancellationError at once")
  func cancelledSleep() async {
    let test = TestScheduler()
    let rx = SerialDispatchQueueScheduler(core: test)
    let sleeper = Task { try await Task.sleep(for: .seconds(60), clock: rx) }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(test.pendingCount == 0, "the sleep's timer is removed")
  }

  @Test("The native signals' operators take Rx schedulers as native schedulers", .virtualTime)
  func nativeSignalsTakeRxSchedulers() async throws {
    let start = TestScheduler.current!.now
    var ticks: [String] = []
    let timer = Signal<Int, Never>.timer(after: .seconds(5), period: .seconds(2), on: MainScheduler.instance)
    for try await tick in timer.prefix(3) {
      ticks.append("\(tick)@\(TestScheduler.current!.now.offset - start.offset)")
    }
    #expect(ticks == ["0@5.0 seconds", "1@7.0 seconds", "2@9.0 seconds"])
  }

  @Test("A feature written against any Scheduler runs on CurrentThreadScheduler's trampoline")
  func currentThreadSchedulerIsATrampoline() {
    let scheduler: any Scheduler = CurrentThreadScheduler.instance
    let log = Log()
    scheduler.schedule {
      log("outer start")
      scheduler.schedule { log("nested") }
      log("outer end")
    }
    #expect(log.values == ["outer start", "outer end", "nested"])
  }
}

private func isOnMainActor() -> Bool {
  MainActor.assumeIsolated { true }
}
