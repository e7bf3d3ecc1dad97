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
/// - In a Swift Testing test: `Issue.record`, at the given source location.
/// - Outside one (an XCTest test, a plain program, a thread no test owns): still `Issue.record` (a Swift
///   Testing run attributes it to the run), and `XCTFail` when XCTest is loaded, so a running XCTest
///   test fails (its message starts with the source location: XCTest takes only literal file names),
///   and the message is printed to standard error.
func reportIssue(_ message: String, fileID: String, filePath: String, line: Int, column: Int) {
  #if canImport(Testing)
    Issue.record(
      Comment(rawValue: message),
      sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    if Test.current != nil { return }
  #endif
  _ = XCTestFailure.fail(message, filePath: filePath, line: line)
  let located = "\(fileID):\(line): \(message)"
  var text = "error: \(located)\n"
  text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
}
