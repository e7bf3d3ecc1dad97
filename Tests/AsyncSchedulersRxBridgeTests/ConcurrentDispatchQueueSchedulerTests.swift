import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTestSupport
import Dispatch
import Testing

@Suite("ConcurrentDispatchQueueScheduler")
struct ConcurrentDispatchQueueSchedulerTests {
  @Test("two actions run at the same time")
  func concurrent() async {
    let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
    let first = DispatchSemaphore(value: 0)
    let second = DispatchSemaphore(value: 0)
    let met = Latch(count: 2)
    // Each waits (bounded) for the other to have started: only possible if both run at once.
    _ = scheduler.schedule(()) { _ in
      first.signal()
      if second.wait(timeout: .now() + 30) == .success { met.signal() }
      return Disposables.create()
    }
    _ = scheduler.schedule(()) { _ in
      second.signal()
      if first.wait(timeout: .now() + 30) == .success { met.signal() }
      return Disposables.create()
    }
    #expect(await met.wait())
  }

  @Test("a timed action disposed before it is due never runs")
  func disposeTimed() async {
    let scheduler = ConcurrentDispatchQueueScheduler(queue: .global())
    let log = Log()
    let cancelled = scheduler.scheduleRelative((), dueTime: .milliseconds(5)) { _ in
      log("cancelled ran")
      return Disposables.create()
    }
    cancelled.dispose()
    let fence = Latch()
    _ = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
      fence.signal()
      return Disposables.create()
    }
    #expect(await fence.wait())
    #expect(log.values.isEmpty)
  }
}
