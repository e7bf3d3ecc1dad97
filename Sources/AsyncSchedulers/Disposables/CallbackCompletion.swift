import Synchronization

/// Awaits callback-style work that reports its completion through a closure and can be disposed.
///
/// `start` is called at once, synchronously, on the calling task. It begins the work and returns the
/// disposable that cancels it; the work calls `complete` (from any thread) with its result.
///
/// - Cancellation: if the awaiting task is cancelled before the work completes, the work's disposable
///   is disposed (synchronously inside `cancel()`, or as soon as `start` returns it) and this function
///   throws `CancellationError`. If the task is already cancelled, `start` is never called.
/// - Exactly once: the continuation is resumed exactly once, by whichever of completion and
///   cancellation comes first. Later calls of `complete` are ignored; nothing is leaked.
public func withCallbackCompletion<T: Sendable>(
  isolation: isolated (any Actor)? = #isolation,
  _ start: (_ complete: @escaping @Sendable (Result<T, any Error>) -> Void) -> any Disposable
) async throws -> T {
  let bridge = CallbackCompletionBridge<T>()
  return try await withTaskCancellationHandler(
    operation: {
      // Unchecked: the state machine resumes the continuation exactly once (it is model-tested), and
      // the checked variant costs an allocation per call.
      try await withUnsafeThrowingContinuation(isolation: isolation) { continuation in
        guard bridge.install(continuation) else { return }
        let disposable = start { result in bridge.complete(result) }
        bridge.attach(disposable)
      }
    },
    onCancel: { bridge.cancel() },
    isolation: isolation)
}

/// The states of one awaited callback operation; pure, returns what to do.
struct CallbackCompletionStateMachine<Continuation> {
  /// A machine in its initial state.
  init() {}

  enum State {
    case initial
    case cancelledBeforeStart
    case waiting(Continuation, (any Disposable)?)
    case completed
    case cancelled(disposableAttached: Bool)
  }

  var state: State = .initial

  /// `true`: the work may start. `false`: already cancelled; resume the continuation with an error.
  mutating func install(_ continuation: Continuation) -> Bool {
    switch state {
    case .initial:
      state = .waiting(continuation, nil)
      return true
    case .cancelledBeforeStart:
      state = .cancelled(disposableAttached: true)
      return false
    case .waiting, .completed, .cancelled:
      preconditionFailure("install called twice")
    }
  }

  /// Returns whether the disposable must be disposed now (cancellation came first).
  mutating func attach(_ disposable: any Disposable) -> Bool {
    switch state {
    case .waiting(let continuation, nil):
      state = .waiting(continuation, disposable)
      return false
    case .cancelled(disposableAttached: false):
      state = .cancelled(disposableAttached: true)
      return true
    case .completed:
      return false
    case .initial, .cancelledBeforeStart, .waiting, .cancelled:
      preconditionFailure("attach out of order")
    }
  }

  /// The continuation to resume with the result, if the operation is still waiting.
  mutating func complete() -> Continuation? {
    guard case .waiting(let continuation, _) = state else { return nil }
    state = .completed
    return continuation
  }

  /// The continuation to resume with `CancellationError` and the disposable to dispose, if waiting.
  mutating func cancel() -> (Continuation, (any Disposable)?)? {
    switch state {
    case .initial:
      state = .cancelledBeforeStart
      return nil
    case .waiting(let continuation, let disposable):
      state = .cancelled(disposableAttached: disposable != nil)
      return (continuation, disposable)
    case .cancelledBeforeStart, .completed, .cancelled:
      return nil
    }
  }
}

/// Performs the state machine's actions outside its lock.
final class CallbackCompletionBridge<T: Sendable>: Sendable {
  typealias Continuation = UnsafeContinuation<T, any Error>
  private let machine = Mutex(CallbackCompletionStateMachine<Continuation>())

  func install(_ continuation: Continuation) -> Bool {
    let proceed = machine.withCriticalRegion { $0.install(continuation) }
    if !proceed { continuation.resume(throwing: CancellationError()) }
    return proceed
  }

  func attach(_ disposable: any Disposable) {
    if machine.withCriticalRegion({ $0.attach(disposable) }) { disposable.dispose() }
  }

  func complete(_ result: Result<T, any Error>) {
    machine.withCriticalRegion { $0.complete() }?.resume(with: result)
  }

  func cancel() {
    guard let (continuation, disposable) = machine.withCriticalRegion({ $0.cancel() }) else { return }
    disposable?.dispose()
    continuation.resume(throwing: CancellationError())
  }
}
