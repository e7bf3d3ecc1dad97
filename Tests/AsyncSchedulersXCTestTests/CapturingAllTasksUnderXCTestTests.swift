import AppPatterns
import AsyncSchedulers
import AsyncSchedulersTesting
import XCTest

/// An XCTest team testing app code on virtual time: `capturingAllTasks` in XCTest `async` tests.
final class CapturingAllTasksUnderXCTestTests: XCTestCase {
  @MainActor
  func testAMainActorViewModelSearchesOnceTheTypingStopsForExactly300Milliseconds() async {
    let scheduler = TestScheduler()
    let model = SearchViewModel(search: { [$0] })
    await scheduler.capturingAllTasks {
      model.queryChanged("s")
      scheduler.advance(by: .milliseconds(100))
      model.queryChanged("sw")
      scheduler.advance(by: .milliseconds(299))
      XCTAssertEqual(model.searches, [])
      scheduler.advance(by: .milliseconds(1))
      XCTAssertEqual(model.searches, ["sw"])
    }
  }

  func testATimeoutRaceIsDecidedOnVirtualTimeFromANonisolatedTest() async {
    let scheduler = TestScheduler()
    let outcome = await scheduler.capturingAllTasks {
      let race = Task { try await withTimeout(.seconds(2)) { try await fakeFetch("slow", latency: .seconds(5)) } }
      scheduler.advance(by: .seconds(2))
      return await race.result
    }
    switch outcome {
    case .success(let value): XCTFail("the fetch won the race with \(value)")
    case .failure(let error): XCTAssertTrue(error is TimedOut, "\(error)")
    }
    XCTAssertEqual(scheduler.now.offset, .seconds(2))
  }
}
