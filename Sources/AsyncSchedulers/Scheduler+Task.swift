extension Scheduler {
  /// Starts `operation` as a task that prefers this scheduler, and returns it as a `Disposable`
  /// (Task → Disposable): the way callback code starts async work and keeps something to dispose.
  ///
  /// The task's code, and its `async let` and task-group children, run on this scheduler. Disposing
  /// (or cancelling) the task cancels it cooperatively: `sleep` on any scheduler throws
  /// `CancellationError` promptly, and code between suspension points is never interrupted.
  @discardableResult
  public func startTask(
    priority: TaskPriority? = nil, _ operation: sending @escaping @isolated(any) () async -> Void
  ) -> Task<Void, Never> {
    Task(executorPreference: self, priority: priority, operation: operation)
  }
}
