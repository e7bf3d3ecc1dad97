import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Dispatch
import Synchronization
import Testing

@testable import AsyncSchedulers

@Suite("TestScheduler timer owner (StressTests)")
struct TestSchedulerTimerOwnerStressTests {
  @Test("timers disposed on another thread while their scheduler is released: each removed or ignored, never a crash")
  func disposeRacesRelease() async {
    let rounds = ThreadSanitizerHooks.shared == nil ? 3_000 : 300
    let disposed = await onDedicatedThread { () -> Int in
      var disposed = 0
      for _ in 0..<rounds {
        var scheduler: TestScheduler? = TestScheduler()
        let timers = (0..<4).map { _ in scheduler!.schedule(after: .seconds(1)) {} }
        let go = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
          go.wait()
          for timer in timers { timer.dispose() }
          done.signal()
        }
        go.signal()
        scheduler = nil  // races the disposals: the link is cleared before the heap goes
        done.wait()
        disposed += timers.filter(\.isDisposed).count
      }
      return disposed
    }
    #expect(disposed == rounds * 4)
  }
}
