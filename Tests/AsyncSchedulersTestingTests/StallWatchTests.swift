import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Foundation
import Testing

/// A counter whose executor is a scheduler.
private actor BoundCounter {
  let scheduler: TestScheduler
  var value = 0
  init(scheduler: TestScheduler) { self.scheduler = scheduler }
  nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }
  func increment() -> Int {
    value += 1
    return value
  }
}

@Suite("TestScheduler: never a silent hang")
struct StallWatchTests {
  @Test("Awaiting an actor bound to a scheduler nothing drives fails within stallTimeout, naming both fixes, and ends")
  func undrivenSchedulerFailsAndEnds() async {
    // In a child process, so that a regression hangs the child (and fails here), not the suite.
    await withKnownIssue {
      let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
        let scheduler = TestScheduler(stallTimeout: .milliseconds(200))
        let counter = BoundCounter(scheduler: scheduler)
        let value = await counter.increment()
        print("ended with \(value)")
        exitChildProcessSuccessfully()
      }
      let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
      #expect(output.contains("ended with 1"))
    } matching: { issue in
      issue.comments.contains {
        ($0.rawValue.contains("nothing drives it") && $0.rawValue.contains("capturingAllTasks")
          && $0.rawValue.contains("advance(by:)")) || $0.rawValue.contains("reached it from outside")
      }
    }
  }

  @Test("a stall timeout counts a negative value as zero and takes a huge one without trapping")
  func extremeStallTimeouts() async {
    #expect(TestScheduler(stallTimeout: .seconds(-5)).stallTimeout == .zero)
    // A task job from the test arms the watch: a year at most, no trap converting the duration.
    let huge = TestScheduler(stallTimeout: .seconds(Int64.max))
    let task = Task(executorPreference: huge) { 1 }
    huge.run()
    #expect(await task.value == 1)
    huge.expectNoPendingWork()
  }
}
