import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Foundation
import Testing

/// A stall is declared only once the cooperative pool has had its turn: a wake-up, or the test's own
/// driving step, that waits in a busy pool's queue past the stall timeout is not a stall. Each test runs
/// in a child process, whose pool nothing else uses, and blocks every thread of that pool for 1.2 s
/// with a stall timeout of 1 s (the turn waits another stall timeout at most, so until 2 s). Not under
/// ThreadSanitizer, whose slowed runtime can take the margin between 1.2 s and 2 s.
@Suite("Stall watches wait for the cooperative pool's turn", .enabled(if: !isThreadSanitized))
struct PoolTurnTests {
  @Test("outside a scope: a test whose driving step waits in a busy pool past the stall timeout is not stalled")
  func busyPoolDelaysTheDrivingStep() async {
    // Before the watch waited for the pool's turn, it reported a stall at 1 s that the test was about
    // to end by driving.
    await #expect(processExitsWith: .success) {
      let scheduler = TestScheduler(stallTimeout: .seconds(1))
      let counter = BoundCounter(scheduler: scheduler)
      let task = Task(executorPreference: scheduler) { await counter.increment() }
      blockEveryPoolThread(for: .milliseconds(1_200))
      await Task.yield()  // Behind the blocked threads: the pool runs this step at 1.2 s.
      scheduler.run()
      guard await task.value == 1 else { exit(1) }
      try? await Task.sleep(for: .seconds(2))  // The watch and its turn end meanwhile.
      exitChildProcessSuccessfully()
    }
  }

  @Test("in a scope: a body awaiting a task whose step waits in a busy pool past the stall timeout is not stalled")
  func busyPoolDelaysTheAwaitedTask() async {
    // The body awaits a task that is not the scope's (its steps run on the pool): its only step waits
    // behind the blocked threads until 1.2 s. Before the pump waited for the pool's turn, it reported
    // "the body waited 1.0 seconds of real time with nothing ready to run" at 1 s.
    await #expect(processExitsWith: .success) {
      let scheduler = TestScheduler()
      let value = await scheduler.capturingAllTasks(stallTimeout: .seconds(1)) {
        // From a thread of its own, so that neither the blocking tasks nor the awaited one are the
        // scope's (its pump would run them).
        let outside = await withCheckedContinuation { (continuation: CheckedContinuation<Task<Int, Never>, Never>) in
          Thread.detachNewThread {
            blockEveryPoolThread(for: .milliseconds(1_200))
            continuation.resume(returning: Task.detached { 1 })
          }
        }
        return await outside.value
      }
      guard value == 1 else { exit(1) }
      exitChildProcessSuccessfully()
    }
  }
}

/// Blocks every thread of the cooperative pool for `duration` of real time, from the caller's next
/// suspension: one task per core (the pool's width), queued ahead of that suspension's next step, each
/// waiting on a semaphore that a thread of its own signals.
private func blockEveryPoolThread(for duration: Duration) {
  let width = ProcessInfo.processInfo.activeProcessorCount
  let release = DispatchSemaphore(value: 0)
  for _ in 0..<width { Task.detached { release.wait() } }
  let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  Thread.detachNewThread {
    Thread.sleep(forTimeInterval: seconds)
    for _ in 0..<width { release.signal() }
  }
}
