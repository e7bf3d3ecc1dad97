// RxTest's XCTest assertions as RxSwift projects write them, with `import RxSwift`/`import RxTest`
// swapped for the bridge and its testing module, in Swift 5 mode, in an XCTest case.
import AsyncSchedulersRxBridge
import AsyncSchedulersRxBridgeTesting
import XCTest

private struct Failure: Error, CustomStringConvertible {
  let description: String
}

final class RxTestAssertionsSwapTests: XCTestCase {
  /// Failures recorded while `capturing` is set, kept instead of failing the test, so a test can check
  /// that an assertion failed and where; any other failure fails the test as usual.
  private var captured: [(description: String, line: Int)] = []
  private var capturing = false

  private func failures(of body: () -> Void) -> [(description: String, line: Int)] {
    captured = []
    capturing = true
    body()
    capturing = false
    return captured
  }

  #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
      guard capturing else { return super.record(issue) }
      captured.append((issue.compactDescription, issue.sourceCodeContext.location?.lineNumber ?? 0))
    }
  #else
    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
      guard capturing else {
        return super.recordFailure(
          withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
      captured.append((description, lineNumber))
    }
  #endif

  func testRecordedEventsCompareWithRxTestsAssertion() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
    let res = scheduler.start { xs.map { $0 * 10 } }
    XCTAssertEqual(res.events, [.next(210, 10), .next(220, 20), .completed(230)])
    XCTAssertRecordedElements(res.events.filter { !$0.value.isStopEvent }, [10, 20])
    XCTAssertEqual(res.events.map(\.value), [.next(10), .next(20), .completed])
    XCTAssertEqual(xs.subscriptions, [Subscription(200, 230)])
  }

  func testOptionalElementsAndTraitEventsCompareToo() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([.next(210, Int?.none), .next(220, 3), .completed(300)])
    let res = scheduler.start { xs.asObservable() }
    XCTAssertEqual(res.events, [.next(210, nil), .next(220, 3), .completed(300)])

    XCTAssertEqual(
      [SingleEvent<Int>.success(1), .failure(Failure(description: "boom"))],
      [.success(1), .failure(Failure(description: "boom"))])
    XCTAssertEqual([MaybeEvent<Int>.success(1), .completed], [.success(1), .completed])
    XCTAssertEqual([CompletableEvent.completed], [.completed])
  }

  func testAMismatchFailsTheTestAtTheAssertionsLineNamingEachDifference() {
    let line = #line + 2
    let failed = failures {
      XCTAssertEqual([Recorded.next(210, 1), .next(220, 2)], [.next(210, 1), .next(230, 2), .completed(240)])
    }
    XCTAssertEqual(failed.count, 1)
    XCTAssertEqual(failed.first?.line, line)
    let message = failed.first?.description ?? ""
    XCTAssertTrue(message.contains("[1] next(2) @ 220 ≠ next(2) @ 230"), message)
    XCTAssertTrue(message.contains("[2] (none) ≠ completed @ 240"), message)
    XCTAssertFalse(message.contains("[0]"), message)
  }

  func testEachOverloadFailsOnADifferentEvent() {
    let failed = failures {
      XCTAssertEqual([Event.next(1)], [Event.next(2)])
      XCTAssertEqual([SingleEvent<Int>.failure(Failure(description: "a"))], [.failure(Failure(description: "b"))])
      XCTAssertEqual([MaybeEvent<Int>.completed], [.success(1)])
      XCTAssertEqual([CompletableEvent.completed], [.error(Failure(description: "a"))])
      XCTAssertEqual([Recorded.next(210, Int?.some(1))], [.next(210, nil)])
    }
    XCTAssertEqual(failed.count, 5, "\(failed.map(\.description))")
  }

  func testRecordedElementsFailOnAStopEventOrOtherValues() {
    let failed = failures {
      XCTAssertRecordedElements([Recorded.next(210, 1), .completed(300)], [1])
      XCTAssertRecordedElements([Recorded.next(210, 1)], [2])
    }
    XCTAssertEqual(failed.count, 2)
    XCTAssertTrue(failed.first?.description.contains("stop event") ?? false, "\(failed.map(\.description))")
  }
}
