import AppPatterns
import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Foundation
import Synchronization
import Testing

/// App code as a team writes it: a model whose load takes 2 s (a plain `Task.sleep` stands in for the
/// network), with no import of this package.
@MainActor
private final class FeedModel {
  private(set) var items: [String] = []
  private(set) var isLoading = false

  func load() async -> [String] {
    isLoading = true
    defer { isLoading = false }
    try? await Task.sleep(for: .seconds(2))
    items = ["a", "b"]
    return items
  }
}

@Suite("Auto-advance: time moves when every task of the scope waits")
struct AutoAdvanceTests {
  @MainActor
  @Test("Awaiting a load that sleeps 2 s returns at exactly 2 s of virtual time, with no advance call")
  func awaitingALoadAdvancesTheClock() async throws {
    let scheduler = TestScheduler()
    let start = ContinuousClock.now
    let (items, now) = await scheduler.capturingAllTasks {
      let model = FeedModel()
      return (await model.load(), scheduler.now)
    }
    #expect(items == ["a", "b"])
    #expect(now == SchedulerInstant.zero.advanced(by: .seconds(2)))
    // Real time is the point here, so not under ThreadSanitizer, whose runtime stalls every thread for
    // seconds at a time (measured: 2.3 s for this test in a sanitized run on two busy cores).
    if !isThreadSanitized {
      #expect(ContinuousClock.now - start < .seconds(1), "2 s of virtual time took real time")
    }
  }

  @MainActor
  @Test("A body that sleeps checks the states in between, as a Go test with synctest does")
  func sleepingBodyChecksIntermediateStates() async throws {
    let scheduler = TestScheduler()
    await scheduler.capturingAllTasks {
      let model = SearchViewModel { [$0] }
      model.queryChanged("s")
      try? await Task.sleep(for: .milliseconds(200))
      #expect(model.searches == [])
      #expect(scheduler.now == SchedulerInstant.zero.advanced(by: .milliseconds(200)))
      try? await Task.sleep(for: .milliseconds(100))
      #expect(model.searches == ["s"])
    }
  }

  @MainActor
  @Test("Under the trait, a view model test needs no advance at all", .virtualTime)
  func traitAutoAdvances() async throws {
    let model = FeedModel()
    let loading = Task { await model.load() }
    try? await Task.sleep(for: .seconds(1))
    #expect(model.isLoading)
    #expect(await loading.value == ["a", "b"])
    #expect(TestScheduler.current?.now == SchedulerInstant.zero.advanced(by: .seconds(2)))
  }

  @Test("Manual driving keeps working and stays exact alongside auto-advance")
  func manualDrivingStaysExact() async {
    let scheduler = TestScheduler()
    let woke = await scheduler.capturingAllTasks {
      let sleeper = Task {
        try? await Task.sleep(for: .milliseconds(700))
        return scheduler.now
      }
      scheduler.advance(by: .milliseconds(300))
      #expect(scheduler.now == SchedulerInstant.zero.advanced(by: .milliseconds(300)))
      return await sleeper.value
    }
    #expect(woke == SchedulerInstant.zero.advanced(by: .milliseconds(700)))
  }

  @MainActor
  @Test("A poller nobody stops while the body awaits what never comes: auto-advance gives up, names it, ends the body")
  func endlessAdvanceStops() async {
    let scheduler = TestScheduler()
    await withKnownIssue {
      await scheduler.capturingAllTasks(stallTimeout: .seconds(120)) {
        let poller = Poller {}
        poller.start()
        // A stream nobody feeds: only cancellation ends this wait.
        let (never, _) = AsyncStream<Int>.makeStream()
        for await _ in never {}
        poller.stop()
      }
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("auto-advance moved the clock 100000 times") && $0.rawValue.contains("plain sleep due at")
      }
    }
  }
}

@Suite("settle(): waiting until every task of the scope waits, without moving the clock")
struct SettleTests {
  @MainActor
  @Test("settle returns once the work of the current instant has all happened, and the clock has not moved")
  func settleRunsTheCurrentInstant() async {
    let scheduler = TestScheduler()
    await scheduler.capturingAllTasks(expectingNoPendingWork: false) {
      let model = SearchViewModel { [$0] }
      let steps = Log()
      Task {
        steps.append("a")
        await Task.yield()
        steps.append("b")
        await Task.detached { steps.append("c") }.value
        try? await Task.sleep(for: .seconds(1))
        steps.append("late")
      }
      model.queryChanged("s")
      await scheduler.settle()
      #expect(steps.values == ["a", "b", "c"])
      #expect(scheduler.now == .zero)
      #expect(model.searches == [])
    }
  }

  @Test("Outside a capturing scope, settle runs the ready work and returns")
  func settleOutsideAScope() async {
    let scheduler = TestScheduler()
    let ran = Log()
    scheduler.schedule { ran.append("job") }
    await scheduler.settle()
    #expect(ran.values == ["job"])
  }
}

/// Lines from any task.
private final class Log: Sendable {
  private let lines = Mutex<[String]>([])
  func append(_ line: String) { lines.withCriticalRegion { $0.append(line) } }
  var values: [String] { lines.withCriticalRegion { $0 } }
}
