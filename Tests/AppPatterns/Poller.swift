// App code as a team writes it: no import of swift-async-schedulers.

/// Polls a source once a second on the main actor, with plain `Task.sleep`, until stopped.
@MainActor
public final class Poller {
  public private(set) var polls = 0
  private var task: Task<Void, Never>?
  private let poll: @Sendable () async -> Void

  public init(poll: @escaping @Sendable () async -> Void) { self.poll = poll }

  public func start() {
    task = Task {
      while !Task.isCancelled {
        polls += 1
        await poll()
        do { try await Task.sleep(for: .seconds(1)) } catch { return }
      }
    }
  }

  public func stop() { task?.cancel() }

  /// Waits for the polling task to end after ``stop()``.
  public func finished() async { await task?.value }
}
