import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Dispatch
import Foundation
import Testing

@Suite("Failure reports outside a Swift Testing test")
struct IssueReportingTests {
  @Test("a failure reported by a thread no test owns is printed to standard error with its location, not lost")
  func printedWhenNoTestOwnsTheThread() async {
    // In a child process: there, a thread outside any test reports, as in a plain program or after an
    // XCTest test (whose framework does not see Swift Testing's issues) has moved on.
    await withKnownIssue {
      let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
          let scheduler = TestScheduler()
          scheduler.schedule(after: .seconds(1)) {}
          scheduler.expectNoPendingWork()
          done.signal()
        }
        thread.start()
        done.wait()
        exitChildProcessSuccessfully()
      }
      let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(output.contains("IssueReportingTests.swift:"), "\(output)")
      #expect(output.contains("Expected no pending work"), "\(output)")
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("Expected no pending work") }
    }
  }
}
