import Synchronization

/// The states of one ``Scheduler/perform(_:)`` call; pure, returns what to do.
///
/// Cancellation wins only until the body starts: once it has started, the caller gets its result
/// (its side effects happened, so the caller is never told they did not).
struct PerformStateMachine<Continuation, Job> {
  /// A machine in its initial state.
  init() {}

  /// Where one call is.
  enum State {
    /// Nothing yet.
    case initial
    /// The task was cancelled before the continuation was installed.
    case cancelledBeforeInstall
    /// The job is scheduled (or being scheduled: `job` is attached once `schedule` returns).
    case waiting(Continuation, Job?)
    /// The body is running; its result goes to the continuation.
    case started(Continuation)
    /// The continuation was resumed.
    case resumed
  }

  private(set) var state: State = .initial

  /// `true`: schedule the job. `false`: already cancelled; resume the continuation with
  /// `CancellationError` (the body never runs).
  mutating func install(_ continuation: Continuation) -> Bool {
    switch state {
    case .initial:
      state = .waiting(continuation, nil)
      return true
    case .cancelledBeforeInstall:
      state = .resumed
      return false
    case .waiting, .started, .resumed:
      preconditionFailure("perform: install called twice")
    }
  }

  /// Keeps the scheduled job so that cancellation can stop it. The job may have run already (an
  /// immediate scheduler runs it inside `schedule`); then there is nothing to keep.
  mutating func attach(_ job: Job) {
    if case .waiting(let continuation, nil) = state { state = .waiting(continuation, job) }
  }

  /// The job starts: `true` lets the body run (cancellation no longer applies); `false` means the call
  /// was cancelled first and the body must not run.
  mutating func start() -> Bool {
    switch state {
    case .waiting(let continuation, _):
      state = .started(continuation)
      return true
    case .resumed:
      return false
    case .initial, .cancelledBeforeInstall, .started:
      preconditionFailure("perform: the job started out of order")
    }
  }

  /// The body returned: the continuation to resume with its result.
  mutating func finish() -> Continuation {
    guard case .started(let continuation) = state else { preconditionFailure("perform: finish without start") }
    state = .resumed
    return continuation
  }

  /// The task was cancelled: while the job waits, the continuation to resume with `CancellationError`
  /// and the job to dispose; `nil` once the body has started (its result will come) or afterwards.
  mutating func cancel() -> (Continuation, Job?)? {
    switch state {
    case .initial:
      state = .cancelledBeforeInstall
      return nil
    case .waiting(let continuation, let job):
      state = .resumed
      return (continuation, job)
    case .cancelledBeforeInstall, .started, .resumed:
      return nil
    }
  }
}

/// Performs ``PerformStateMachine``'s actions outside its lock: resumes the continuation, disposes the
/// job, runs the body.
final class PerformCompletion<T: Sendable>: Sendable {
  typealias Continuation = CheckedContinuation<T, any Error>
  private let machine = Mutex(PerformStateMachine<Continuation, ScheduledAction>())

  func install(_ continuation: Continuation) -> Bool {
    let proceed = machine.withCriticalRegion { $0.install(continuation) }
    if !proceed { continuation.resume(throwing: CancellationError()) }
    return proceed
  }

  func attach(_ job: ScheduledAction) {
    machine.withCriticalRegion { $0.attach(job) }
  }

  /// Runs `body` unless the call was cancelled first, and resumes the caller with its result.
  func run(_ body: () throws -> T) {
    guard machine.withCriticalRegion({ $0.start() }) else { return }
    let result = Result { try body() }
    machine.withCriticalRegion { $0.finish() }.resume(with: result)
  }

  func cancel() {
    guard let (continuation, job) = machine.withCriticalRegion({ $0.cancel() }) else { return }
    job?.dispose()
    continuation.resume(throwing: CancellationError())
  }
}
