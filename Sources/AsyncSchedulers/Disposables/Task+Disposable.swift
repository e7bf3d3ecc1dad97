extension Task: Disposable {
  /// Cancels the task (Task → Disposable). Cancellation is cooperative: the task's code sees it at its
  /// next cancellation check or cancellable suspension, exactly as with `cancel()`.
  public func dispose() { cancel() }

  /// Whether the task has been cancelled.
  public var isDisposed: Bool { isCancelled }
}

/// Runs `operation`, disposing `disposable` if the current task is cancelled meanwhile
/// (Disposable → Task).
///
/// `disposable.dispose()` runs synchronously inside the `cancel()` call that cancels the task, on the
/// cancelling thread; if the task is already cancelled it runs at once, before `operation` starts.
/// Once `operation` returns, cancelling the task no longer disposes anything.
public func withTaskCancellation<T>(
  disposing disposable: some Disposable,
  isolation: isolated (any Actor)? = #isolation,
  operation: () async throws -> T
) async rethrows -> T {
  try await withTaskCancellationHandler(operation: operation, onCancel: { disposable.dispose() }, isolation: isolation)
}
