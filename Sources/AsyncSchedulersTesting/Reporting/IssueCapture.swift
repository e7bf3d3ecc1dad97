import Synchronization

/// Collects the failures the testing module reports, instead of recording them on the running test:
/// the injected reporter the package's own tests use to check the library's failure messages without
/// recording thousands of known issues (a passing `swift test` reads clean).
///
/// It is a task-local value: failures reported from the collecting task, the tasks it starts and the
/// schedulers it creates (whose reports run in its context, through their owning-test relay) are
/// collected. A failure reported from a thread with no such context (a raw thread with no scheduler of
/// the collecting task) is recorded as usual.
package enum IssueCapture {
  /// The collector of the calling context (`nil`: failures are recorded).
  @TaskLocal package static var collector: IssueCollector?

  /// Runs `body` with a new collector and returns what it collected, in reporting order.
  package static func collecting(
    isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void
  ) async rethrows -> [String] {
    let collector = IssueCollector()
    try await $collector.withValue(collector) { try await body() }
    return collector.messages
  }

  /// Runs `body` (synchronous) with a new collector and returns what it collected, in reporting order.
  package static func collecting(_ body: () throws -> Void) rethrows -> [String] {
    let collector = IssueCollector()
    try $collector.withValue(collector) { try body() }
    return collector.messages
  }
}

/// The failures collected in an ``IssueCapture`` scope.
package final class IssueCollector: Sendable {
  private let collected = Mutex<[String]>([])

  /// Adds one failure's message.
  package func append(_ message: String) { collected.withLock { $0.append(message) } }

  /// The messages collected so far, in reporting order.
  package var messages: [String] { collected.withLock { $0 } }
}
