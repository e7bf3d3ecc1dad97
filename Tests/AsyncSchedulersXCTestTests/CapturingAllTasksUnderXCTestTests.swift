import AppPatterns
import AsyncSchedulers
import AsyncSchedulersTesting
import Synchronization
import XCTest

/// An XCTest team testing app code on virtual time: `capturingAllTasks` in XCTest `async` tests.
final class CapturingAllTasksUnderXCTestTests: XCTestCase {
  /// Failures recorded while `capturing` is set (description, line), kept instead of failing the test.
  private let captured = Mutex<(on: Bool, failures: [(String, Int)])>((false, []))

  private func failures(of body: () async -> Void) async -> [(String, Int)] {
    captured.withLock { $0 = (true, []) }
    await body()
    return captured.withLock {
      $0.on = false
      return $0.failures
    }
  }

  #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
      let kept = captured.withLock { state -> Bool in
        guard state.on else { return false }
        state.failures.append((issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0))
        return true
      }
      if !kept { super.record(issue) }
    }
  #else
    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
      let kept = captured.withLock { state -> Bool in
        guard state.on else { return false }
        state.failures.append((description, lineNumber))
        return true
      }
      if !kept {
        super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
    }
  #endif

  func testAPollerLeftRunningFailsTheTestAtTheScopeAsTheTraitWould() async {
    let scheduler = TestScheduler()
    let line = #line + 2
    let failures = await failures {
      await scheduler.capturingAllTasks {
        _ = Task { while !Task.isCancelled { try? await Task.sleep(for: .seconds(1)) } }
      }
    }
    XCTAssertEqual(failures.count, 1, "\(failures)")
    XCTAssertTrue(failures.first?.0.contains("Expected no pending work") ?? false, "\(failures)")
    XCTAssertEqual(failures.first?.1, line)
  }

  func testAScopeThatOptsOutLeavesItsPendingWorkToTheTest() async {
    let scheduler = TestScheduler()
    let failures = await failures {
      await scheduler.capturingAllTasks(expectingNoPendingWork: false) {
        _ = scheduler.schedule(after: .seconds(1)) {}
      }
    }
    XCTAssertEqual(failures.count, 0, "\(failures)")
    XCTAssertEqual(scheduler.pendingCount, 1)
    scheduler.run()
  }

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
