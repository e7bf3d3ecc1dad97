/// Fails the running test with `message` at `file`:`line`, whichever framework runs it: the seam the
/// bridges' testing modules report through (RxTest's `XCTAssertEqual` overloads in
/// `AsyncSchedulersRxBridgeTesting`), so they fail XCTest and Swift Testing tests alike without linking
/// XCTest.
///
/// Runs on the calling thread and does not block. In a Swift Testing test the issue is recorded on
/// that test; otherwise `XCTFail` fails the running XCTest test and the message is printed to standard
/// error, so a failure is never lost.
@_spi(TestingBridges)
public func reportTestFailure(_ message: String, file: StaticString, line: UInt) {
  let filePath = file.description
  reportIssue(
    message, fileID: fileID(ofPath: filePath), filePath: filePath, line: Int(clamping: line), column: 1)
}

/// `Module/File.swift` for a source path (Swift Testing's source locations want a file ID): the file's
/// directory stands for its module, as SwiftPM names a target after its directory.
private func fileID(ofPath path: String) -> String {
  let parts = path.split(separator: "/", omittingEmptySubsequences: true)
  guard let file = parts.last else { return "Unknown/Unknown.swift" }
  let module = parts.dropLast().last ?? "Unknown"
  return "\(module)/\(file)"
}
