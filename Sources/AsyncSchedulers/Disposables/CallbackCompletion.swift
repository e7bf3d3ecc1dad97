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
  let bridge = CompletionBridge<T>()
  return try await withTaskCancellationHandler(
    operation: {
      try await withUnsafeThrowingContinuation(isolation: isolation) { continuation in
        guard bridge.install(continuation) else { return }
        let disposable = start { result in bridge.complete(result) }
        bridge.attach(disposable)
      }
    },
    onCancel: { bridge.cancel() },
    isolation: isolation)
}
