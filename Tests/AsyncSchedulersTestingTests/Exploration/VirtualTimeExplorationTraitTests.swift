import AppPatterns
import AsyncSchedulersTesting
import Testing

@Suite("The .virtualTime(exploring:) and .virtualTime(seed:) traits")
struct VirtualTimeExplorationTraitTests {
  @Test(
    "A test with .virtualTime(exploring:) runs its body once per seed, each on a fresh scheduler",
    .virtualTime(exploring: 25))
  func exploringRunsTheBodyOnFreshSchedulers() async throws {
    let scheduler = try #require(TestScheduler.current)
    #expect(scheduler.now == .zero)
    try await Task.sleep(for: .seconds(1))
    #expect(scheduler.now == .zero.advanced(by: .seconds(1)))
  }

  @Test("A fixed view model passes an exploring test, written as users write it", .virtualTime(exploring: 100))
  @MainActor
  func fixedSearchModelPassesExploration() async throws {
    let model = LatestSearchResultsModel(backend: SearchBackend(latency: .milliseconds(200)))
    model.queryChanged("s")
    model.queryChanged("sw")
    try await Task.sleep(for: .seconds(1))
    #expect(model.results == ["sw1", "sw2"])
  }

  @Test("A failing exploration names the seed, the runs that passed, and the replay spelling")
  func failingExplorationNamesTheSeed() async throws {
    let test = try #require(Test.current)
    let seen = try await IssueCapture.collecting {
      try await VirtualTimeTrait.virtualTime(exploring: 100).provideScope(
        for: test, testCase: Test.Case.current
      ) {
        try await OrderBugScenario.depositLost.run(fixed: false, on: TestScheduler.current!)
      }
    }
    let message = try #require(seen.first { $0.contains("Exploring orderings: run") })
    #expect(message.contains("failed with seed "))
    #expect(message.contains("passed before it"))
    #expect(message.contains("distinct ordering(s)"))
    #expect(message.contains("Replay it with @Test(.virtualTime(seed: "))
    #expect(message.contains("ran (also ready:"))
  }

  @Test("Replaying the seed with .virtualTime(seed:) fails the same way, with the same choices")
  func replayTraitRepeatsTheRun() async throws {
    let test = try #require(Test.current)
    let explored = try await IssueCapture.collecting {
      try await VirtualTimeTrait.virtualTime(exploring: 100).provideScope(for: test, testCase: Test.Case.current) {
        try await OrderBugScenario.cacheLoadsTwice.run(fixed: false, on: TestScheduler.current!)
      }
    }
    let message = try #require(explored.first { $0.contains("Exploring orderings: run") })
    let seedText = try #require(message.split(separator: "with seed ").last?.split(separator: " ").first)
    let seed = try #require(UInt64(seedText))
    let choices = try #require(message.split(separator: "Its choices:\n").last)
    for _ in 0..<20 {
      let replayed = try await IssueCapture.collecting {
        try await VirtualTimeTrait.virtualTime(seed: seed).provideScope(for: test, testCase: Test.Case.current) {
          try await OrderBugScenario.cacheLoadsTwice.run(fixed: false, on: TestScheduler.current!)
        }
      }
      let replay = try #require(replayed.first { $0.contains("The run replaying seed \(seed) failed") })
      #expect(replay.split(separator: "Its choices:\n").last == choices)
    }
  }

  @Test("Exploring with PCT names the strategy in the replay spelling")
  func pctReplaySpellingNamesTheStrategy() async throws {
    let test = try #require(Test.current)
    let seen = try await IssueCapture.collecting {
      try await VirtualTimeTrait.virtualTime(exploring: 100, strategy: .pct(depth: 2, expectedDecisions: 8))
        .provideScope(for: test, testCase: Test.Case.current) {
          try await OrderBugScenario.timeoutAndResponseBothComplete.run(fixed: false, on: TestScheduler.current!)
        }
    }
    #expect(seen.contains { $0.contains(", strategy: .pct(depth: 2, expectedDecisions: 8)))") })
  }
}

@Suite("Exploring orderings: bad input (BadInput)")
struct ExplorationBadInputTests {
  @Test("Exploring zero runs names .virtualTime(exploring:), the argument and its value")
  func zeroRunsTrait() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = VirtualTimeTrait.virtualTime(exploring: 0)
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        ".virtualTime(exploring:): runs must be at least 1 (got 0)"))
  }

  @Test("Exploring zero runs names TestScheduler.exploringOrderings, the argument and its value")
  func zeroRunsFunction() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await TestScheduler.exploringOrderings(runs: 0) { _ in }
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "TestScheduler.exploringOrderings(runs:): runs must be at least 1 (got 0)"))
  }

  @Test("A PCT depth or expected choice count below 1 names the strategy, the argument and its value")
  func pctArguments() async throws {
    let depth = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = OrderingStrategy.pct(depth: 0)
    }
    #expect(String(decoding: depth.standardErrorContent, as: UTF8.self).contains("depth must be at least 1 (got 0)"))
    let decisions = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = OrderingStrategy.pct(expectedDecisions: -2)
    }
    #expect(
      String(decoding: decisions.standardErrorContent, as: UTF8.self).contains(
        "expectedDecisions must be at least 1 (got -2)"))
  }
}
