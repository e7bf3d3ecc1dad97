#if canImport(Testing)
  import Testing
#endif

/// Fails the running test with `message` (Swift Testing), or prints it when no test is running.
func reportIssue(_ message: String, fileID: String, filePath: String, line: Int, column: Int) {
  #if canImport(Testing)
    Issue.record(
      Comment(rawValue: message),
      sourceLocation: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  #else
    print("error: \(fileID):\(line): \(message)")
  #endif
}
