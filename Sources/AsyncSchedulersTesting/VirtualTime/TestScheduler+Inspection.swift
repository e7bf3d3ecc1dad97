import AsyncSchedulers

/// What a test can ask a ``TestScheduler`` about its pending work.
extension TestScheduler {

  /// The number of ready jobs plus pending timers (including sleeping tasks).
  public var pendingCount: Int { state.withCriticalRegion { $0.pendingCount } }

  /// When the next work is due: `now` if work is ready, the earliest timer's deadline otherwise, `nil`
  /// when nothing is pending.
  public var nextDeadline: SchedulerInstant? { state.withCriticalRegion { $0.nextDeadline } }

  /// How many pieces of work escaped to this scheduler since it was created (for tests of the rule).
  var escapeTotal: Int { state.withCriticalRegion { $0.escapes.total } }

  /// A readable list of what is pending.
  public var pendingDescription: String { pendingSnapshot().describe(name: name) }

  /// Fails the current test, listing what is pending, when any work remains.
  public func expectNoPendingWork(
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) {
    expectNoPendingWork(atEndOfTest: false, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Fails the test when work remains; at the end of a `.virtualTime` test, the message says what the
  /// pending sleeps mean (tasks the test started, still alive) and how to end them.
  func expectNoPendingWork(atEndOfTest: Bool, fileID: String, filePath: String, line: Int, column: Int) {
    reportEscapes(fileID: fileID, filePath: filePath, line: line, column: column)
    let pending = pendingSnapshot()
    guard pending.liveCount > 0 else { return }
    let hint =
      atEndOfTest
      ? "\nTasks the test started are still alive (each plain sleep below is one): cancel or await them before "
        + "the test ends, or start them with TestScheduler.current!.backgroundTask { … }, which cancels and awaits "
        + "them when the test's body returns."
      : ""
    report(
      "Expected no pending work.\(hint)\n\(pending.describe(name: name))", fileID: fileID, filePath: filePath,
      line: line,
      column: column)
  }
}
