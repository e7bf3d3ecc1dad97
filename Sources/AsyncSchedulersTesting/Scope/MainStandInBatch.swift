import AsyncSchedulers
import Synchronization

/// The callbacks of a scheduler's main-actor stand-ins waiting for their turn, drained by one main-queue
/// job, as the real main-actor scheduler's worker is one main-queue block that runs everything scheduled
/// while it is pending: so `schedule { rx1 }`, `Task { @MainActor in … }`, `schedule { rx2 }` run rx1, rx2,
/// then the task, here as on a device, and exploring orderings keeps that order (the drain job and the
/// main actor's jobs are one lane).
///
/// Kept by the scheduler (stand-ins are made per call); holds no scheduler. The drain runs the
/// callbacks with no lock held, one at a time, taking those added meanwhile.
final class MainStandInBatch: Sendable {
  private let state = Mutex<(pending: [ScheduledAction], drainQueued: Bool)>(([], false))

  /// Adds `action`; returns `true` when the caller must queue a drain job (none is queued).
  func add(_ action: ScheduledAction) -> Bool {
    state.withLock { state in
      state.pending.append(action)
      guard !state.drainQueued else { return false }
      state.drainQueued = true
      return true
    }
  }

  /// Runs the pending callbacks in order, with those added while it runs, until none is left.
  func drain() {
    while let next = state.withLock({ state -> ScheduledAction? in
      guard !state.pending.isEmpty else {
        state.drainQueued = false
        return nil
      }
      return state.pending.removeFirst()
    }) {
      next.run()
    }
  }
}
