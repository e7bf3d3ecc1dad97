import AsyncSchedulers

/// How a ``TestScheduler`` fails a test: at the line given, in the context of the test that owns it.
extension TestScheduler {
  /// Fails the test with the escapes recorded since the last report, if any.
  func reportEscapes(fileID: String, filePath: String, line: Int, column: Int) {
    guard let escapes = state.withCriticalRegion({ $0.drainEscapes() }) else { return }
    report(escapes.describe(name: name), fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Fails the running test with `message` (see `reportIssue`), counting it. Called from a thread
  /// outside every Swift Testing test (a Dispatch timer's), it fails the test that created the
  /// scheduler instead (see ``inOwningTest(_:)``).
  func report(_ message: String, fileID: String, filePath: String, line: Int, column: Int) {
    issuesReported.add(1, ordering: .relaxed)
    inOwningTest { reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column) }
  }

  /// Runs `work` now when the calling code runs in a test's context (or no test created the
  /// scheduler); else in the context of the Swift Testing test that created it, on that test's relay
  /// task, after the work posted before it.
  func inOwningTest(_ work: @escaping @Sendable () -> Void) {
    if OwningTestRelay.callerHasTestContext || owningTest?.post(work) != true { work() }
  }
}
