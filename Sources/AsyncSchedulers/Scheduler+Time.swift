extension Scheduler {
  /// Schedules `action` to run on this scheduler `delay` from now; a negative or zero delay means as
  /// soon as possible. See ``schedule(at:leeway:_:)``.
  @discardableResult
  public func schedule(
    after delay: Duration, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    schedule(at: now.advanced(by: delay), leeway: leeway, action)
  }

  /// Runs `action` on this scheduler `delay` from now, with no handle (`DispatchQueue.asyncAfter`); a
  /// negative or zero delay means as soon as possible. See ``execute(at:leeway:_:)``.
  public func execute(after delay: Duration, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void) {
    execute(at: now.advanced(by: delay), leeway: leeway, action)
  }

  /// Schedules `action` every `interval`, first `interval` from now. See
  /// ``scheduleRepeating(startingAt:every:leeway:_:)``.
  @discardableResult
  public func scheduleRepeating(
    every interval: Duration, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    scheduleRepeating(startingAt: now.advanced(by: interval), every: interval, leeway: leeway, action)
  }

  /// Suspends the current task until `deadline` on this scheduler's clock, with no tolerance: calls
  /// the scheduler's own ``sleep(until:tolerance:)`` (a requirement), whatever the static type.
  public func sleep(until deadline: SchedulerInstant) async throws {
    try await sleep(until: deadline, tolerance: nil)
  }

  /// Suspends the current task until `deadline` on this scheduler's clock: the default implementation
  /// of the requirement.
  ///
  /// The sleep is one entry in the scheduler's timer structure (no thread, no Dispatch source of its
  /// own). A deadline that is not in the future returns at once, without suspending. Cancelling the task
  /// throws `CancellationError` promptly (the wake-up is one enqueue on the task's executor), removes
  /// the timer entry and releases everything the sleep held. The task resumes on its own executor.
  public func sleep(until deadline: SchedulerInstant, tolerance: Duration?) async throws {
    try await sleep(until: deadline, tolerance: tolerance) { schedule(at: $0, leeway: $1, $2) }
  }

  /// The default sleep, with its wake-up timer added by `addTimer(deadline, leeway, wake)` instead of
  /// ``schedule(at:leeway:_:)``: for a scheduler that treats a sleeping task's timer apart from other
  /// timers (a test scheduler watches it). `addTimer` is called once, on the calling task, while it
  /// suspends; the rest (cancellation, a deadline not in the future) is the default's.
  package func sleep(
    until deadline: SchedulerInstant, tolerance: Duration?,
    addingTimerWith addTimer: (SchedulerInstant, Duration, @escaping @Sendable () -> Void) -> ScheduledAction
  ) async throws {
    try Task.checkCancellation()
    guard deadline > now else { return }
    // `withCallbackCompletion` spelled out, so the timer's body calls the bridge directly (one closure
    // fewer per sleep).
    let bridge = CompletionBridge<Void>()
    try await withTaskCancellationHandler(
      operation: {
        try await withUnsafeThrowingContinuation { continuation in
          guard bridge.install(continuation) else { return }
          bridge.attach(addTimer(deadline, tolerance ?? .zero) { bridge.complete(.success(())) })
        }
      },
      onCancel: { bridge.cancel() })
  }

  /// Runs `body` on this scheduler and returns its result.
  ///
  /// `body` runs as a callback job (in FIFO order with other work) and may not suspend; it must not
  /// block for long. Cancellation applies only until `body` starts: if the calling task is cancelled
  /// before then, `body` never runs (its job is disposed at once) and `CancellationError` is thrown;
  /// once it has started, it runs to completion and the caller gets its result or its error, even if
  /// the task was cancelled meanwhile, so the caller is never told that work which ran did not.
  public func perform<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    let completion = CompletionBridge<T>()
    return try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { continuation in
        guard completion.install(continuation) else { return }
        completion.attach(schedule { completion.run(body) })
      }
    } onCancel: {
      completion.cancel()
    }
  }
}
