import AsyncSchedulers
import Synchronization

/// The timer of one `timeout` subscription: armed at the subscription and after each value; when it
/// fires before the next event, the fallback runs and later upstream events are dropped.
final class TimeoutWatch: Disposable {
  private struct State {
    /// Bumped by every event, so a timer armed before it knows it is stale.
    var generation: UInt64 = 0
    var timedOut = false
    var timer: ScheduledAction?
  }

  private let state = Mutex(State())
  private let core: any Scheduler
  private let limit: Duration

  init(core: any Scheduler, limit: Duration) {
    self.core = core
    self.limit = limit
  }

  /// Arms the timer for the current generation; `onTimeout` runs on the scheduler if it fires first.
  func arm(_ onTimeout: @escaping @Sendable () -> Void) {
    let generation = state.withCriticalRegion { $0.generation }
    let timer = core.schedule(after: limit, leeway: .zero) { [self] in
      let fire = state.withCriticalRegion { state -> Bool in
        guard state.generation == generation, !state.timedOut else { return false }
        state.timedOut = true
        return true
      }
      if fire { onTimeout() }
    }
    let stale = state.withCriticalRegion { state -> ScheduledAction? in
      defer { state.timer = timer }
      return state.timer
    }
    stale?.dispose()
  }

  /// Whether an upstream event may pass (no time-out yet); moves to the next generation, cancelling the
  /// pending timer.
  func pass() -> Bool {
    let (passes, timer) = state.withCriticalRegion { state -> (Bool, ScheduledAction?) in
      guard !state.timedOut else { return (false, nil) }
      state.generation &+= 1
      defer { state.timer = nil }
      return (true, state.timer)
    }
    timer?.dispose()
    return passes
  }

  var isDisposed: Bool { state.withCriticalRegion { $0.timedOut && $0.timer == nil } }

  func dispose() {
    let timer = state.withCriticalRegion { state -> ScheduledAction? in
      state.generation &+= 1
      defer { state.timer = nil }
      return state.timer
    }
    timer?.dispose()
  }
}
