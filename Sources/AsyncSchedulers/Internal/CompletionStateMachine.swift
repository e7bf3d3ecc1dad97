/// The states of one awaited piece of scheduled or callback work (``withCallbackCompletion(isolation:_:)``,
/// ``Scheduler/sleep(until:tolerance:)``, ``Scheduler/perform(_:)``); pure, every event returns what to do.
///
/// The caller installs its continuation, then starts the work and attaches the disposable that cancels
/// it; the work completes (from any thread), or the caller's task is cancelled. The continuation is
/// resumed exactly once, by whichever comes first. Work that reports ``start()`` (a `perform` body)
/// is no longer cancellable once started: its result always reaches the caller.
struct CompletionStateMachine<Continuation, Work> {
  /// A machine in its initial state.
  init() {}

  /// Where one operation is.
  enum State {
    /// Nothing yet.
    case initial
    /// The task was cancelled before the continuation was installed.
    case cancelledBeforeInstall
    /// The work is on its way (`work` is attached once the call that started it returns).
    case waiting(Continuation, Work?)
    /// The work started and can no longer be cancelled; its result goes to the continuation.
    case started(Continuation)
    /// The continuation was resumed with the work's result.
    case completed
    /// The continuation was resumed with `CancellationError`; `workAttached` says whether the work's
    /// disposable was already handed over (and disposed).
    case cancelled(workAttached: Bool)
  }

  private(set) var state: State = .initial

  /// `true`: start the work. `false`: already cancelled; resume the continuation with
  /// `CancellationError` (the work never starts).
  mutating func install(_ continuation: Continuation) -> Bool {
    switch state {
    case .initial:
      state = .waiting(continuation, nil)
      return true
    case .cancelledBeforeInstall:
      state = .cancelled(workAttached: true)
      return false
    case .waiting, .started, .completed, .cancelled:
      argumentFailure("CompletionStateMachine: install called twice")
    }
  }

  /// Keeps the work's disposable so that cancellation can dispose it; returns `true` when it must be
  /// disposed now (cancellation came first). Work that already started or completed (an immediate
  /// scheduler runs it inside the call that started it) has nothing to keep.
  mutating func attach(_ work: Work) -> Bool {
    switch state {
    case .waiting(let continuation, nil):
      state = .waiting(continuation, work)
      return false
    case .cancelled(workAttached: false):
      state = .cancelled(workAttached: true)
      return true
    case .started, .completed:
      return false
    case .initial, .cancelledBeforeInstall, .waiting, .cancelled:
      argumentFailure("CompletionStateMachine: attach out of order")
    }
  }

  /// The work starts: `true` lets it run (cancellation no longer applies); `false` means the operation
  /// was cancelled first and the work must not run.
  mutating func start() -> Bool {
    switch state {
    case .waiting(let continuation, _):
      state = .started(continuation)
      return true
    case .cancelled:
      return false
    case .initial, .cancelledBeforeInstall, .started, .completed:
      argumentFailure("CompletionStateMachine: the work started out of order")
    }
  }

  /// The work completed: the continuation to resume with its result, if no one resumed it yet.
  mutating func complete() -> Continuation? {
    switch state {
    case .waiting(let continuation, _), .started(let continuation):
      state = .completed
      return continuation
    case .initial, .cancelledBeforeInstall, .completed, .cancelled:
      return nil
    }
  }

  /// The task was cancelled: while the work waits, the continuation to resume with
  /// `CancellationError` and the work's disposable to dispose; `nil` once the work started (its result
  /// will come) or the continuation was resumed.
  mutating func cancel() -> (Continuation, Work?)? {
    switch state {
    case .initial:
      state = .cancelledBeforeInstall
      return nil
    case .waiting(let continuation, let work):
      state = .cancelled(workAttached: work != nil)
      return (continuation, work)
    case .cancelledBeforeInstall, .started, .completed, .cancelled:
      return nil
    }
  }
}
