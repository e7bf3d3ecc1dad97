import AsyncSchedulersTestSupport
import Testing

@testable import AsyncSchedulersTesting

@Suite("Pump threads")
struct PumpThreadsTests {
  @Test("consecutive capturing scopes reuse a parked pump thread instead of starting one each")
  func consecutiveScopesReuseAThread() async {
    let before = PumpThreads.shared.threadsStarted
    for _ in 0..<10 {
      let scheduler = TestScheduler()
      await scheduler.capturingAllTasks {
        let task = Task { 1 }
        _ = await task.value
      }
    }
    // A second thread starts only when a scope begins while the previous pump is still returning
    // (other tests' scopes included); one per scope would be ten.
    #expect(PumpThreads.shared.threadsStarted - before <= 3)
  }

  @Test("a body handed to the pool runs on its thread, and an idle thread ends after its lifetime")
  func idleThreadEnds() async {
    let ended = Latch()
    let pool = PumpThreads(idleLifetime: .milliseconds(20), threadEnded: { ended.signal() })
    let ran = Latch()
    pool.run(named: "pump test") { ran.signal() }
    #expect(await ran.wait())
    #expect(pool.threadsStarted == 1)
    #expect(await ended.wait())
    #expect(pool.liveThreads == 0)
  }
}
