import AppPatterns
import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Foundation
import Testing

@testable import AsyncSchedulers

/// Main-actor jobs that reach a test scheduler after it is gone: a poller started on the main actor
/// inside a scope and stopped there, its scheduler dropped as the test ends, while the cancelled
/// sleep's wake-up is still on its way to the scheduler's main-actor face.
@Suite("TestScheduler's main actor when the scheduler is gone (StressTests)")
struct TestSchedulerMainExecutorStressTests {
  // Not under ThreadSanitizer: there the exit test's child process stops at once with SIGILL before
  // its first round completes (not yet explained; the same rounds in the test process itself are
  // clean under ThreadSanitizer, see the next test).
  @Test(
    "a main-actor job reaching a dropped scheduler runs on the real main actor, never traps",
    .enabled(if: ThreadSanitizerHooks.shared == nil))
  func jobsAfterTheSchedulerIsGone() async {
    // In a child process: before the fix the process traps ("already destroyed") in a few runs of a
    // thousand.
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      let rounds = 2_000 * max(1, Int(ProcessInfo.processInfo.environment["ASYNC_SCHEDULERS_SOAK"] ?? "") ?? 1)
      for _ in 0..<rounds { await pollerStartedAndStoppedInAScope() }
      exitChildProcessSuccessfully()
    }
    if let result, result.exitStatus != .exitCode(0) {
      Issue.record(
        "the child process ended with: \(String(decoding: result.standardErrorContent, as: UTF8.self).suffix(3_000))")
    }
  }
}

extension TestSchedulerMainExecutorStressTests {
  @Test("the same rounds in the test process: no trap, and nothing left behind")
  func roundsInProcess() async {
    let rounds = ThreadSanitizerHooks.shared == nil ? 500 : 50
    for _ in 0..<rounds { await pollerStartedAndStoppedInAScope() }
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
