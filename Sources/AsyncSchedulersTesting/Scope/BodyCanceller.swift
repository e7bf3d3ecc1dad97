import AsyncSchedulers
import Synchronization

/// Cancels a capturing scope's body on the pump's request, from a task of the scope: a task that
/// carries the body's task-locals (under Swift Testing, the current test), so the test framework's own
/// cancellation handling sees the test it belongs to, as when a test cancels itself.
///
/// One helper task per scope waits (suspended, holding no thread) until the pump asks for the
/// cancellation or the scope ends; it never outlives the scope.
final class BodyCanceller: Sendable {
  private enum State {
    case idle
    case waiting(CheckedContinuation<Bool, Never>)
    case decided(cancel: Bool)
  }

  private let state = Mutex(State.idle)

  /// Starts the helper task that cancels `body` on request, and returns once it waits. Call from the
  /// body, inside the scope.
  func start(cancelling body: SleepingTask?) async {
    await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
      Task { [self] in
        if await decision(started: started) { body?.cancel() }
      }
    }
  }

  /// Asks for the body's cancellation (the pump, when auto-advance gives up). Never blocks.
  func requestCancellation() { decide(cancel: true) }

  /// Lets the helper end without cancelling anything (the scope ends).
  func finish() { decide(cancel: false) }

  /// Waits for the decision; resumes `started` once the wait is registered (or decided).
  private func decision(started: CheckedContinuation<Void, Never>) async -> Bool {
    await withCheckedContinuation { continuation in
      defer { started.resume() }
      let decided = state.withCriticalRegion { state -> Bool? in
        switch state {
        case .idle:
          state = .waiting(continuation)
          return nil
        case .decided(let cancel): return cancel
        case .waiting: fatalError("BodyCanceller: one helper only")
        }
      }
      if let decided { continuation.resume(returning: decided) }
    }
  }

  private func decide(cancel: Bool) {
    let waiter = state.withCriticalRegion { state -> CheckedContinuation<Bool, Never>? in
      switch state {
      case .idle:
        state = .decided(cancel: cancel)
        return nil
      case .waiting(let continuation):
        state = .decided(cancel: cancel)
        return continuation
      case .decided: return nil
      }
    }
    waiter?.resume(returning: cancel)
  }
}
