import AppPatterns
import AsyncSchedulers
import AsyncSchedulersTesting
import Foundation
import Testing

/// Main-actor jobs that reach a test scheduler after it is gone: a poller started on the main actor
/// inside a scope and stopped there, its scheduler dropped as the test ends, while the cancelled
/// sleep's wake-up is still on its way to the scheduler's main-actor face.
@Suite("TestScheduler's main actor when the scheduler is gone (StressTests)")
struct TestSchedulerMainExecutorStressTests {
  @Test("a main-actor job reaching a dropped scheduler runs on the real main actor, never traps")
  func jobsAfterTheSchedulerIsGone() async {
    // In a child process: before the fix the process traps ("already destroyed") in a few runs of a
    // thousand.
    await #expect(processExitsWith: .success) {
      let rounds = 2_000 * max(1, Int(ProcessInfo.processInfo.environment["ASYNC_SCHEDULERS_SOAK"] ?? "") ?? 1)
      for _ in 0..<rounds { await pollerStartedAndStoppedInAScope() }
    }
  }
}

@MainActor
private func pollerStartedAndStoppedInAScope() async {
  let scheduler = TestScheduler()
  let poller = Poller {}
  await scheduler.capturingAllTasks {
    poller.start()
    scheduler.advance(by: .seconds(1))
    poller.stop()
  }
}
