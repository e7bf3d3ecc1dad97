import Foundation
#if canImport(Testing)
  import Testing
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Fails the running test with `message`, whichever framework runs it, and never loses it.
///
/// - In an ``IssueCapture`` scope (the package's own tests of failure messages): collected, not recorded.
/// - In a Swift Testing test: `Issue.record`, at the given source location.
/// - Outside one (an XCTest test, a plain program, a thread no test owns): still `Issue.record` (a Swift
///   Testing run attributes it to the run), and `XCTFail` when XCTest is loaded, so a running XCTest
///   test fails at the given location (XCTest prints it, once); the message is also printed to standard
///   error unless XCTest took it on the main thread, where it runs its tests.
func reportIssue(_ message: String, fileID: String, filePath: String, line: Int, column: Int) {
  let inTask = withUnsafeCurrentTask { $0 != nil }
  if let collector = IssueCapture.collector {
    collector.append(message)
    return
  }
  #if canImport(Testing)
    Issue.record(
      Comment(rawValue: message),
      sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    if Test.current != nil { return }
  #endif
  // XCTest runs its tests on the main thread (an async test's body in a task) and prints each failure
  // it records (or hands it to the test's own `record(_:)`): printing it again would show every failure
  // twice. From a thread no test owns (a raw thread, a Dispatch callback), whose failure XCTest drops
  // when no test runs, or when XCTest is not loaded, it is printed, never lost.
  if XCTestFailure.fail(message, filePath: filePath, line: line) && (Thread.isMainThread || inTask) { return }
  let located = "\(fileID):\(line): \(message)"
  var text = "error: \(located)\n"
  text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
}
