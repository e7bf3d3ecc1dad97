import AsyncSchedulers
import AsyncSchedulersTesting
import Synchronization
import XCTest

/// A team that tests with XCTest, not Swift Testing: the test scheduler's failures must fail their
/// tests too. This target imports only what such a team imports.
final class TestSchedulerUnderXCTestTests: XCTestCase {
  /// Failures recorded while `capturing` is set, kept instead of failing the test, so a test can check
  /// that the scheduler reported one; any other failure fails the test as usual.
  private var captured: [String] = []
  private var capturing = false

  private func failures(of body: () -> Void) -> [String] {
    captured = []
    capturing = true
    body()
    capturing = false
    return captured
  }

  #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
      guard capturing else { return super.record(issue) }
      captured.append(issue.compactDescription)
    }
  #else
    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
      guard capturing else {
        return super.recordFailure(
          withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
      captured.append(description)
    }
  #endif

  func testPendingWorkLeftBehindFailsTheXCTestTestNamingWhereItWasChecked() {
    let scheduler = TestScheduler()
    scheduler.schedule(after: .seconds(1)) {}
    let line = #line + 1
    let failures = failures { scheduler.expectNoPendingWork() }
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(failures.first?.contains("TestSchedulerUnderXCTestTests.swift:\(line)") ?? false, "\(failures)")
    XCTAssertTrue(failures.first?.contains("pending") ?? false, "\(failures)")
  }

  func testAnUnimplementedSchedulerUsedFailsTheXCTestTest() {
    let scheduler = UnimplementedScheduler()
    let failures = failures { scheduler.schedule {} }
    XCTAssertEqual(failures.count, 1, "\(failures)")
  }

  func testVirtualTimeStillDrivesCodeUnderXCTest() {
    let scheduler = TestScheduler()
    let fired = Mutex<[Duration]>([])
    scheduler.schedule(after: .milliseconds(300)) { fired.withLock { $0.append(scheduler.now.offset) } }
    let failures = failures { scheduler.advance(by: .seconds(1)) }
    XCTAssertEqual(failures, [])
    XCTAssertEqual(fired.withLock { $0 }, [.milliseconds(300)])
  }
}
