import AsyncSchedulers
import Synchronization

/// A thread-safe log.
final class Log<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])
  func append(_ value: Value) { storage.withCriticalRegion { $0.append(value) } }
  var values: [Value] { storage.withCriticalRegion { $0 } }
}

/// Waits for a count of events from any thread, bounded by a generous real-time limit.
final class Latch: Sendable {
  private let remaining: Atomic<Int>
  private let waiter = Mutex<(@Sendable (Result<Void, any Error>) -> Void)?>(nil)
  private static let timeouts = SerialScheduler(name: "bridge.latch.timeouts")

  init(count: Int = 1) { remaining = Atomic(count) }

  func signal() {
    guard remaining.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
    waiter.withCriticalRegion { waiter in
      defer { waiter = nil }
      return waiter
    }?(.success(()))
  }

  func wait(timeout: Duration = .seconds(20)) async -> Bool {
    do {
      try await withCallbackCompletion { (complete: @escaping @Sendable (Result<Void, any Error>) -> Void) in
        waiter.withCriticalRegion { $0 = complete }
        if remaining.load(ordering: .acquiring) <= 0 {
          waiter.withCriticalRegion { waiter in
            defer { waiter = nil }
            return waiter
          }?(.success(()))
        }
        return Latch.timeouts.schedule(after: timeout) {
          self.waiter.withCriticalRegion { waiter in
            defer { waiter = nil }
            return waiter
          }?(.failure(CancellationError()))
        }
      }
      return true
    } catch {
      return false
    }
  }
}
