#if canImport(Testing)
  import Testing
#endif

/// Runs work in the context of the Swift Testing test that created a scheduler, whichever thread posts
/// it: how a failure a scheduler finds on its own (a stall its watch sees, from a Dispatch timer's
/// thread) lands on the test that owns the scheduler, never on «unknown» or on the next test.
///
/// Swift Testing attributes an issue through task-local values (the running test, `withKnownIssue`'s
/// handler), and a thread outside the test's tasks has none. The relay keeps one task, started where the
/// scheduler was created, so it carries that context: posted work runs there, in posting order, one item
/// at a time. The task waits on an `AsyncStream` (no thread, no polling) and ends when the relay is
/// released (with its scheduler).
///
/// There is no relay outside a Swift Testing test (XCTest attributes `XCTFail` to its running test from
/// any thread) nor inside a capturing scope (the scope's failures are recorded from its body's task, and
/// a task started there would be one of the scope's).
final class OwningTestRelay: Sendable {
  /// The work posted for the relay's task.
  typealias Work = @Sendable () -> Void

  private let continuation: AsyncStream<Work>.Continuation

  private init(continuation: AsyncStream<Work>.Continuation) { self.continuation = continuation }

  deinit { continuation.finish() }

  /// A relay for the Swift Testing test running the calling code, or `nil` when no test runs it (or it
  /// runs in a capturing scope).
  static func forCallingTest() -> OwningTestRelay? {
    #if canImport(Testing)
      guard Test.current != nil, ActiveScopes.shared.scopeOfCallingCode() == nil else { return nil }
      let (stream, continuation) = AsyncStream.makeStream(of: Work.self, bufferingPolicy: .unbounded)
      // On the global executor even when the test's task prefers a scheduler's (which may never run it);
      // an unstructured task copies the creating task's task-local values, the test's context included.
      Task(executorPreference: globalConcurrentExecutor) {
        for await work in stream { work() }
      }
      return OwningTestRelay(continuation: continuation)
    #else
      return nil
    #endif
  }

  /// Whether the calling code runs in a Swift Testing test's context (then a failure it records lands on
  /// that test without a relay).
  static var callerHasTestContext: Bool {
    #if canImport(Testing)
      Test.current != nil
    #else
      false
    #endif
  }

  /// Posts `work` for the relay's task; `false` when the relay has ended (the caller then runs it).
  func post(_ work: @escaping Work) -> Bool {
    if case .enqueued = continuation.yield(work) { return true }
    return false
  }
}
