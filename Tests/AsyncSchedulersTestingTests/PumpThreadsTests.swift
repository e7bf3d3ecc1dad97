import AsyncSchedulersTestSupport
import Foundation
import Testing

@testable import AsyncSchedulers
@testable import AsyncSchedulersTesting

@Suite("Pump threads")
struct PumpThreadsTests {
  @Test(
    "consecutive capturing scopes reuse a parked pump thread instead of starting one each",
    .enabled(
      if: ThreadSanitizerHooks.shared == nil,
      "under ThreadSanitizer the sanitized suite's many parallel scopes take the parked threads in between"))
  func consecutiveScopesReuseAThread() async {
    // The pump threads that ran thirty consecutive scopes' bodies. Other tests' scopes run in parallel
    // and may take the parked thread in between (ten were seen taken ten times in a row while the Rx
    // tests' scopes ran); a new thread per scope would be thirty.
    var threads: Set<UInt> = []
    for _ in 0..<30 {
      let scheduler = TestScheduler()
      let thread = await scheduler.capturingAllTasks {
        let task = Task { 1 }
        _ = await task.value
        return currentThreadIdentity()
      }
      threads.insert(thread)
    }
    #expect(threads.count < 30)
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

/// The calling thread's identity.
private func currentThreadIdentity() -> UInt {
  #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
  #else
    UInt(pthread_self())
  #endif
}
