import AsyncSchedulersTesting
import Synchronization
import Testing

/// A counter shared with background work.
private final class Counter: Sendable {
  private let count = Mutex(0)
  func increment() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}

@Suite("TestScheduler.backgroundTask")
struct BackgroundTaskTests {
  @Test("A background poller runs on virtual time, and is cancelled and awaited when the test ends", .virtualTime)
  func pollerRunsAndIsCancelledAtTheEnd() async throws {
    let scheduler = try #require(TestScheduler.current)
    let polls = Counter()
    let poller = scheduler.backgroundTask {
      while !Task.isCancelled {
        polls.increment()
        try? await Task.sleep(for: .seconds(1))
      }
    }
    try await Task.sleep(for: .milliseconds(3_500))
    #expect(polls.value == 4)
    #expect(!poller.isCancelled)
    // The trait checks for pending work after the scope: the cancelled poller's sleep is inert.
  }

  @Test("After the scope, background tasks have been cancelled and have ended")
  func scopeEndsWithBackgroundWorkDone() async {
    let scheduler = TestScheduler()
    let ended = Counter()
    var started: Task<Void, Never>?
    await scheduler.capturingAllTasks {
      started = scheduler.backgroundTask {
        let (stream, _) = AsyncStream<Int>.makeStream()
        for await _ in stream {}  // nobody feeds it: ends only when cancelled
        ended.increment()
      }
      try? await Task.sleep(for: .seconds(1))
    }
    #expect(started?.isCancelled == true)
    #expect(ended.value == 1)
    #expect(scheduler.pendingCount == 0)
  }

  @Test("A plain task in place of the background task leaves its timer pending: the contrast")
  func plainTaskLeavesPendingWork() async {
    let scheduler = TestScheduler()
    let polls = Counter()
    var poller: Task<Void, Never>?
    await scheduler.capturingAllTasks(expectingNoPendingWork: false) {
      poller = Task {
        while !Task.isCancelled {
          polls.increment()
          try? await Task.sleep(for: .seconds(1))
        }
      }
      try? await Task.sleep(for: .milliseconds(1_500))
    }
    #expect(scheduler.pendingCount == 1)
    poller?.cancel()
  }

  @Test("Background work started by background work is awaited too")
  func nestedBackgroundWorkIsAwaited() async {
    let scheduler = TestScheduler()
    let ended = Counter()
    await scheduler.capturingAllTasks {
      scheduler.backgroundTask {
        scheduler.backgroundTask {
          try? await Task.sleep(for: .seconds(100))
          ended.increment()
        }
        try? await Task.sleep(for: .seconds(100))
        ended.increment()
      }
      try? await Task.sleep(for: .seconds(1))
    }
    #expect(ended.value == 2)
    #expect(scheduler.now == .zero.advanced(by: .seconds(1)))
  }

  @Test("Outside a capturing scope, backgroundTask fails the test and runs a plain task")
  func outsideAScopeIsReported() async {
    let scheduler = TestScheduler()
    let ran = Counter()
    await withKnownIssue {
      await scheduler.backgroundTask { ran.increment() }.value
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("backgroundTask was called outside a capturing scope") }
    }
    #expect(ran.value == 1)
  }
}
