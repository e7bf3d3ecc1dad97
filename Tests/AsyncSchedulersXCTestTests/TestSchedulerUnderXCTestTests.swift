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
  /// Where each captured failure was recorded (file path and line).
  private var capturedLocations: [(file: String, line: Int)] = []
  private var capturing = false

  private func failures(of body: () -> Void) -> [String] {
    captured = []
    capturedLocations = []
    capturing = true
    body()
    capturing = false
    return captured
  }

  #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
      guard capturing else { return super.record(issue) }
      captured.append(issue.compactDescription)
      let location = issue.sourceCodeContext.location
      capturedLocations.append((location?.fileURL.path ?? "", location?.lineNumber ?? 0))
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
      capturedLocations.append((filePath, lineNumber))
    }
  #endif

  func testPendingWorkLeftBehindFailsTheXCTestTestNamingWhereItWasChecked() {
    let scheduler = TestScheduler()
    scheduler.schedule(after: .seconds(1)) {}
    let line = #line + 1
    let failures = failures { scheduler.expectNoPendingWork() }
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(failures.first?.contains("pending") ?? false, "\(failures)")
    // XCTest shows the failure at the line that checked, not at "AsyncSchedulersTesting:0".
    XCTAssertEqual(capturedLocations.map(\.line), [line])
    XCTAssertTrue(
      capturedLocations.first?.file.hasSuffix("TestSchedulerUnderXCTestTests.swift") ?? false, "\(capturedLocations)")
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
