import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTesting
import Foundation
import Testing

/// Rx schedulers where Swift concurrency expects a task executor: no `.core` at the call site.
@Suite("Rx schedulers as task executors")
struct RxSchedulerTaskExecutorTests {
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
}

private func isOnMainActor() -> Bool {
  MainActor.assumeIsolated { true }
}
