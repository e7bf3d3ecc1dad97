import AppPatterns
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers

/// How many seeds a fixed version passes: 1,000 (20 under ThreadSanitizer, which checks for races, not
/// orderings: its runs are ten times slower and the sanitized suite shares two cores).
private var fixedRuns: Int { ThreadSanitizerHooks.shared == nil ? 1_000 : 20 }

/// How many times a plain run or a replay repeats.
private let repeats = 100

/// Why the exactness checks are off under ThreadSanitizer: the scenarios sleep with plain `Task.sleep`,
/// whose virtual deadline is recovered from the real-clock one, and the sanitized suite's load (threads
/// preempted for tens of milliseconds while they read the clock) is the documented limit of that
/// recovery: two sleeps due together can then be recovered a millisecond apart, which changes the order.
private let sanitizerNote: Comment =
  "plain sleeps' deadlines are recovered from real time, which the sanitized suite's load can skew"

@Suite("Exploring orderings finds the order bugs of app code")
struct OrderBugExplorationTests {
  @Test(
    "Every order bug passes 100 plain FIFO runs: the fixed order hides it",
    .enabled(if: ThreadSanitizerHooks.shared == nil, sanitizerNote), arguments: OrderBugScenario.allCases)
  func plainFIFOHidesTheBug(_ scenario: OrderBugScenario) async throws {
    for _ in 0..<repeats {
      let scheduler = TestScheduler()
      try await scheduler.capturingAllTasks { try await scenario.run(fixed: false, on: scheduler) }
    }
  }

  @Test("Random exploration finds every order bug within 100 seeds", arguments: OrderBugScenario.allCases)
  func randomExplorationFindsTheBug(_ scenario: OrderBugScenario) async throws {
    var report: OrderExplorationReport?
    let issues = await IssueCapture.collecting {
      report = await TestScheduler.exploringOrderings(runs: 100) { try await scenario.run(fixed: false, on: $0) }
    }
    let found = try #require(report)
    #expect(found.failure != nil)
    #expect(
      issues.count == 1 && issues[0].contains("Replay it with TestScheduler.replayingOrdering(seed:"), "\(issues)")
    print("\(scenario): random exploration found it in run \(found.runsPassed + 1)")
  }

  @Test("PCT exploration finds every order bug within 100 seeds", arguments: OrderBugScenario.allCases)
  func pctExplorationFindsTheBug(_ scenario: OrderBugScenario) async throws {
    var report: OrderExplorationReport?
    let issues = await IssueCapture.collecting {
      report = await TestScheduler.exploringOrderings(runs: 100, strategy: .pct(depth: 2, expectedDecisions: 8)) {
        try await scenario.run(fixed: false, on: $0)
      }
    }
    let found = try #require(report)
    #expect(found.failure != nil)
    #expect(issues.count == 1, "\(issues)")
    print("\(scenario): PCT exploration found it in run \(found.runsPassed + 1)")
  }

  @Test("The fixed version of every order bug passes 1,000 seeds", arguments: OrderBugScenario.allCases)
  func fixedVersionPasses(_ scenario: OrderBugScenario) async {
    let report = await TestScheduler.exploringOrderings(runs: fixedRuns) { try await scenario.run(fixed: true, on: $0) }
    #expect(report.failure == nil)
    #expect(report.runsPassed == fixedRuns)
    #expect(report.distinctOrderings > 1)
  }

  @Test(
    "Replaying a failing seed gives the same trace every time",
    .enabled(if: ThreadSanitizerHooks.shared == nil, sanitizerNote), arguments: OrderBugScenario.allCases)
  func replayIsExact(_ scenario: OrderBugScenario) async throws {
    var report: OrderExplorationReport?
    _ = await IssueCapture.collecting {
      report = await TestScheduler.exploringOrderings(runs: 100) { try await scenario.run(fixed: false, on: $0) }
    }
    let failure = try #require(report?.failure)
    for _ in 0..<repeats {
      var trace: ExplorationTrace?
      let issues = await IssueCapture.collecting {
        trace = await TestScheduler.replayingOrdering(seed: failure.seed) {
          try await scenario.run(fixed: false, on: $0)
        }
      }
      #expect(trace == failure)
      #expect(issues.count == 1 && issues[0].hasPrefix("The replayed run failed. The run threw"), "\(issues)")
    }
  }
}
