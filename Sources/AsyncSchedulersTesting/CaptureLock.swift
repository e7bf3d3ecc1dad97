import AsyncSchedulers
import Synchronization

/// The process-wide lock that lets one `capturingAllTasks` scope at a time route the global executor:
/// scopes of tests running in parallel wait for each other, first come first served.
///
/// Waiting suspends the waiting task (it holds no thread). It is not cancellable: the scope ahead
/// always ends, and a waiter that gave up would leave a test half set up.
final class CaptureLock: Sendable {
  /// The one lock of the process.
  static let shared = CaptureLock()

  private struct State {
    var isHeld = false
    var waiters = FIFOBuffer<CheckedContinuation<Void, Never>>()
  }

  private let state = Mutex(State())

  /// Waits until the lock is free and takes it.
  func acquire() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let granted = state.withCriticalRegion { state -> Bool in
        if state.isHeld {
          state.waiters.append(continuation)
          return false
        }
        state.isHeld = true
        return true
      }
      if granted { continuation.resume() }
    }
  }

  /// Hands the lock to the next waiter, or frees it.
  func release() {
    let next = state.withCriticalRegion { state -> CheckedContinuation<Void, Never>? in
      if !state.isHeld { fatalError("CaptureLock released while not held") }
      if let next = state.waiters.popFirst() { return next }
      state.isHeld = false
      return nil
    }
    next?.resume()
  }
}
