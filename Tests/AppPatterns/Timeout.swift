// App code as a team writes it: no import of swift-async-schedulers.

/// The operation did not finish in time.
public struct TimedOut: Error, Equatable {
  public init() {}
}

/// Races `operation` against a plain `Task.sleep(for: timeout)` in a task group: the first to finish
/// wins, the other is cancelled.
public func withTimeout<T: Sendable>(
  _ timeout: Duration, _ operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  try await withThrowingTaskGroup(of: T.self) { group in
    group.addTask { try await operation() }
    group.addTask {
      try await Task.sleep(for: timeout)
      throw TimedOut()
    }
    defer { group.cancelAll() }
    guard let first = try await group.next() else { throw TimedOut() }
    return first
  }
}

/// A fake network fetch: answers `value` after `latency` of plain `Task.sleep`.
public func fakeFetch<T: Sendable>(_ value: T, latency: Duration) async throws -> T {
  try await Task.sleep(for: latency)
  return value
}
