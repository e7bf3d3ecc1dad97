import AsyncSchedulers
import Synchronization

/// Cancels a capturing scope's body on the pump's request, from a task of the scope: a task that
/// carries the body's task-locals (under Swift Testing, the current test), so the test framework's own
/// cancellation handling sees the test it belongs to, as when a test cancels itself, and a failure the
/// request carries is recorded on that test (never on «unknown», as it would be from the pump's thread).
///
/// One helper task per scope waits (suspended, holding no thread) until the pump asks for the
/// cancellation or the scope ends; it never outlives the scope.
final class BodyCanceller: Sendable {
  /// What the helper does when it wakes.
  private struct Decision {
    var cancel: Bool
    /// A failure to record first, on the body's test.
    var failure: String?
  }

  private enum State {
    case idle
    case waiting(CheckedContinuation<Decision, Never>)
    case decided(Decision)
  }

  private let state = Mutex(State.idle)

  /// Starts the helper task that cancels `body` on request (recording the request's failure with
  /// `report` first), and returns once it waits. Call from the body, inside the scope.
  func start(cancelling body: SleepingTask?, report: @escaping @Sendable (String) -> Void) async {
    await withCheckedContinuation { (started: CheckedContinuation<Void, Never>) in
      Task { [self] in
        let decision = await decision(started: started)
        if let failure = decision.failure { report(failure) }
        if decision.cancel { body?.cancel() }
      }
    }
  }

  /// Asks for the body's cancellation (the pump, when auto-advance gives up or the body stalls), with a
  /// failure to record on the body's test first. Never blocks; only the first request counts.
  func requestCancellation(reporting failure: String? = nil) { decide(Decision(cancel: true, failure: failure)) }

  /// Lets the helper end without cancelling anything (the scope ends).
  func finish() { decide(Decision(cancel: false, failure: nil)) }

  /// Waits for the decision; resumes `started` once the wait is registered (or decided).
  private func decision(started: CheckedContinuation<Void, Never>) async -> Decision {
    await withCheckedContinuation { continuation in
      defer { started.resume() }
      let decided = state.withCriticalRegion { state -> Decision? in
        switch state {
        case .idle:
          state = .waiting(continuation)
          return nil
        case .decided(let decision): return decision
        case .waiting: fatalError("BodyCanceller: one helper only")
        }
      }
      if let decided { continuation.resume(returning: decided) }
    }
  }

  private func decide(_ decision: Decision) {
    let waiter = state.withCriticalRegion { state -> CheckedContinuation<Decision, Never>? in
      switch state {
      case .idle:
        state = .decided(decision)
        return nil
      case .waiting(let continuation):
        state = .decided(decision)
        return continuation
      case .decided: return nil
      }
    }
    waiter?.resume(returning: decision)
  }
}
