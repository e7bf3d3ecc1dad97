// App code as a team migrating from ReactiveCocoa or RxSwift has it: callbacks on Dispatch, no import
// of swift-async-schedulers.
import Dispatch

/// A completion-handler API, as callback-era code writes one: the answer comes `latency` seconds
/// later on a global queue.
public final class UserService: Sendable {
  public let latency: Double

  public init(latency: Double) { self.latency = latency }

  /// Calls `completion` with the user's name after `latency`, on a global queue.
  public func fetchUser(id: Int, completion: @escaping @Sendable (String) -> Void) {
    DispatchQueue.global().asyncAfter(deadline: .now() + latency) { completion("user \(id)") }
  }

  /// The same API wrapped for async callers.
  public func user(id: Int) async -> String {
    await withCheckedContinuation { continuation in
      fetchUser(id: id) { continuation.resume(returning: $0) }
    }
  }
}

/// Races the completion-handler API against a plain `Task.sleep` timeout; `nil` when the timeout wins.
public func userOrTimeout(_ service: UserService, timeout: Duration) async -> String? {
  await withTaskGroup(of: String?.self) { group in
    group.addTask { await service.user(id: 7) }
    group.addTask {
      try? await Task.sleep(for: timeout)
      return nil
    }
    defer { group.cancelAll() }
    return await group.next() ?? nil
  }
}
