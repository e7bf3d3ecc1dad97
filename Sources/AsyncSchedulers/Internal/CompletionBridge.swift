import Synchronization

/// Performs a ``CompletionStateMachine``'s actions outside its lock: resumes the continuation, disposes
/// the work, runs a `perform` body.
final class CompletionBridge<T: Sendable>: Sendable {
  // Unchecked continuations: the state machine resumes each exactly once (it is model-tested), and the
  // checked variant costs an allocation per call.
  typealias Continuation = UnsafeContinuation<T, any Error>
  private let machine = Mutex(CompletionStateMachine<Continuation, any Disposable>())

  /// Installs the caller's continuation; `false` (already cancelled) resumes it with
  /// `CancellationError` and the work must not start.
  func install(_ continuation: Continuation) -> Bool {
    let proceed = machine.withCriticalRegion { $0.install(continuation) }
    if !proceed { continuation.resume(throwing: CancellationError()) }
    return proceed
  }

  /// Hands over the work's disposable; disposes it at once if cancellation came first.
  func attach(_ work: any Disposable) {
    if machine.withCriticalRegion({ $0.attach(work) }) { work.dispose() }
  }

  /// The work completed with `result` (ignored once the caller was resumed).
  func complete(_ result: Result<T, any Error>) {
    machine.withCriticalRegion { $0.complete() }?.resume(with: result)
  }

  /// Runs `body` unless the operation was cancelled first, and resumes the caller with its result;
  /// once `body` starts, cancellation no longer applies.
  func run(_ body: () throws -> T) {
    guard machine.withCriticalRegion({ $0.start() }) else { return }
    let result = Result { try body() }
    complete(result)
  }

  /// The caller's task was cancelled: resumes it with `CancellationError` and disposes the work, unless
  /// the work started or completed first.
  func cancel() {
    guard let (continuation, work) = machine.withCriticalRegion({ $0.cancel() }) else { return }
    work?.dispose()
    continuation.resume(throwing: CancellationError())
  }
}
