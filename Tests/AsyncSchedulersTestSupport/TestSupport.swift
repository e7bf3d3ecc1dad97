import AsyncSchedulers
import Synchronization

/// Counts down events from any thread; a test awaits it with a generous real-time bound instead of
/// sleeping for a fixed time.
package final class Latch: Sendable {
  private struct State {
    var remaining: Int
    var waiter: (@Sendable (Result<Void, any Error>) -> Void)?
  }

  private let state: Mutex<State>
  /// The scheduler whose timer bounds the wait.
  private static let timeouts = SerialScheduler(name: "Latch.timeouts")

  package init(count: Int = 1) { state = Mutex(State(remaining: count)) }

  /// Records one event.
  package func signal() {
    let waiter = state.withCriticalRegion { state -> (@Sendable (Result<Void, any Error>) -> Void)? in
      state.remaining -= 1
      guard state.remaining == 0 else { return nil }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?(.success(()))
  }

  /// Whether every event has happened.
  package var isOpen: Bool { state.withCriticalRegion { $0.remaining <= 0 } }

  /// Waits until every event has happened; returns `false` if `timeout` passed first.
  package func wait(timeout: Duration = .seconds(20)) async -> Bool {
    do {
      try await withCallbackCompletion { (complete: @escaping @Sendable (Result<Void, any Error>) -> Void) in
        let openAlready = state.withCriticalRegion { state -> Bool in
          if state.remaining <= 0 { return true }
          state.waiter = complete
          return false
        }
        if openAlready { complete(.success(())) }
        let timer = Latch.timeouts.schedule(after: timeout) {
          let waiter = self.state.withCriticalRegion { state in
            defer { state.waiter = nil }
            return state.waiter
          }
          waiter?(.failure(TimeoutError()))
        }
        return timer
      }
      return true
    } catch {
      return false
    }
  }

  package struct TimeoutError: Error {}
}

/// A thread-safe log of values, for traces.
package final class Log<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])
  package init() {}
  package func append(_ value: Value) { storage.withCriticalRegion { $0.append(value) } }
  package var values: [Value] { storage.withCriticalRegion { $0 } }
}

/// Counts live instances, to prove closures and their captures are released.
package final class LifetimeCounter: Sendable {
  private let live = Atomic<Int>(0)
  package init() {}
  package var count: Int { live.load(ordering: .acquiring) }

  package final class Token: Sendable {
    let counter: LifetimeCounter
    init(_ counter: LifetimeCounter) {
      self.counter = counter
      counter.live.wrappingAdd(1, ordering: .relaxed)
    }
    deinit { counter.live.wrappingSubtract(1, ordering: .releasing) }
  }

  package func make() -> Token { Token(self) }
}
