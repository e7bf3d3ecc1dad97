import AsyncSchedulersTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite("The clocks' now inside a capturing scope")
struct VirtualClockReadsTests {
  #if os(Linux)
    @Test("ContinuousClock.now and SuspendingClock.now read virtual time in the scope's code, its tasks included")
    func clocksReadVirtualTime() async {
      let scheduler = TestScheduler()
      let (continuous, suspending, inTask) = await scheduler.capturingAllTasks {
        let continuousStart = ContinuousClock.now
        let suspendingStart = SuspendingClock.now
        scheduler.advance(by: .seconds(5))
        let inTask = await Task { ContinuousClock.now - continuousStart }.value
        return (ContinuousClock.now - continuousStart, SuspendingClock.now - suspendingStart, inTask)
      }
      #expect(continuous == .seconds(5))
      #expect(suspending == .seconds(5))
      #expect(inTask == .seconds(5))
    }

    @Test("A deadline read several awaits earlier, and slept on in another task, wakes exactly at it, unreported")
    func deadlineFromAnotherTaskIsExact() async {
      let scheduler = TestScheduler()
      let woke = await scheduler.capturingAllTasks {
        let deadline = ContinuousClock.now + .milliseconds(950)
        try? await Task.sleep(for: .milliseconds(120))
        let sleeper = Task {
          try? await Task.sleep(until: deadline, clock: .continuous)
          return scheduler.now
        }
        return await sleeper.value
      }
      #expect(woke == .zero.advanced(by: .milliseconds(950)))
      scheduler.expectNoPendingWork()
    }
  #endif

  @Test("A thread outside every scope reads real time while a scope's clock runs an hour ahead")
  func readsOutsideScopesStayReal() async {
    let scheduler = TestScheduler()
    let outside = Mutex<Duration?>(nil)
    await scheduler.capturingAllTasks {
      let start = ContinuousClock.now
      scheduler.advance(by: .seconds(3_600))
      let done = DispatchSemaphore(value: 0)
      // A raw thread: Dispatch work the scope's code hands over is the scope's (see ScopeDispatchTests).
      Thread.detachNewThread {
        outside.withLock { $0 = ContinuousClock.now - start }
        done.signal()
      }
      done.wait()
    }
    let elapsed = outside.withLock { $0 }
    #expect(elapsed != nil)
    #expect((elapsed ?? .zero) < .seconds(600), "a real read saw \(String(describing: elapsed))")
  }
}
