import Dispatch
import Synchronization

/// The sleep of the schedulers that run work inline (``ImmediateScheduler``, ``TrampolineScheduler``):
/// it holds the calling thread until `deadline`, like their timed `schedule(at:)`, but cancelling the
/// task ends it at once with `CancellationError`.
///
/// A deadline at ``SchedulerInstant/distantFuture`` (never) does not hold the thread: the task suspends
/// until it is cancelled, so a never-ending sleep cannot take a thread of the cooperative pool for good.
func blockingSleep(until deadline: SchedulerInstant) async throws {
  try Task.checkCancellation()
  guard deadline > .uptimeNow else { return }
  let waiter = BlockingSleepWaiter()
  if deadline >= .distantFuture {
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { continuation in waiter.park(continuation) }
    } onCancel: {
      waiter.cancel()
    }
    return
  }
  await withTaskCancellationHandler {
    waiter.block(until: deadline)
  } onCancel: {
    waiter.cancel()
  }
  try Task.checkCancellation()
}

/// What a blocking sleep waits on: a semaphore that cancellation signals, or (for a sleep that never
/// ends) a parked continuation that cancellation resumes.
final class BlockingSleepWaiter: Sendable {
  private enum State {
    case idle
    case parked(UnsafeContinuation<Void, any Error>)
    case cancelled
  }

  private let state = Mutex(State.idle)
  private let semaphore = DispatchSemaphore(value: 0)

  /// Holds the calling thread until `deadline` or until ``cancel()``, whichever comes first (a cancel
  /// that came earlier ends it at once).
  func block(until deadline: SchedulerInstant) {
    _ = semaphore.wait(timeout: deadline.dispatchTime)
  }

  /// Parks `continuation` until ``cancel()`` resumes it with `CancellationError` (at once if that
  /// already happened).
  func park(_ continuation: UnsafeContinuation<Void, any Error>) {
    let cancelled = state.withCriticalRegion { state -> Bool in
      guard case .idle = state else { return true }
      state = .parked(continuation)
      return false
    }
    if cancelled { continuation.resume(throwing: CancellationError()) }
  }

  /// Ends the wait: signals the semaphore and resumes a parked continuation (outside the lock). Only
  /// the first call has an effect.
  func cancel() {
    let parked = state.withCriticalRegion { state -> UnsafeContinuation<Void, any Error>?? in
      switch state {
      case .cancelled: return nil
      case .idle:
        state = .cancelled
        return .some(nil)
      case .parked(let continuation):
        state = .cancelled
        return .some(continuation)
      }
    }
    guard let parked else { return }
    semaphore.signal()
    parked?.resume(throwing: CancellationError())
  }
}
