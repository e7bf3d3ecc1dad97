import AppPatterns
import AsyncSchedulersTesting
import XCTest

/// An XCTest team exploring orderings: the function spelling of `.virtualTime(exploring:)`.
final class ExploringOrderingsUnderXCTestTests: XCTestCase {
  struct StaleResults: Error {}

  @MainActor
  func testTheFixedSearchModelShowsTheLatestAnswerInEveryExploredOrdering() async {
    let report = await TestScheduler.exploringOrderings(runs: 200) { _ in
      let model = LatestSearchResultsModel(backend: SearchBackend(latency: .milliseconds(200)))
      model.queryChanged("s")
      model.queryChanged("sw")
      try await Task.sleep(for: .seconds(1))
      if model.results != ["sw1", "sw2"] { throw StaleResults() }
    }
    XCTAssertNil(report.failure)
    XCTAssertEqual(report.runsPassed, 200)
    XCTAssertGreaterThan(report.distinctOrderings, 1)
  }

  @MainActor
  func testReplayingASeedGivesTheSameTraceEveryTime() async {
    var traces: Set<ExplorationTrace> = []
    for _ in 0..<20 {
      traces.insert(
        await TestScheduler.replayingOrdering(seed: 42) { _ in
          let model = LatestSearchResultsModel(backend: SearchBackend(latency: .milliseconds(200)))
          model.queryChanged("s")
          model.queryChanged("sw")
          try await Task.sleep(for: .seconds(1))
        })
    }
    XCTAssertEqual(traces.count, 1)
    XCTAssertGreaterThan(traces.first?.decisionCount ?? 0, 0)
  }
}
