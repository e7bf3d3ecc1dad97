import AsyncSchedulers
import Synchronization

/// A virtual-time scheduler that runs everything at once: each action runs inline, and `now` jumps to
/// its deadline first (swift-clocks' `ImmediateClock`, combine-schedulers' `ImmediateScheduler`).
///
/// Use it where a test only cares about *what* happens, not when: sleeps return at once (moving `now`),
/// timed actions run inline. Time never moves backwards: a past deadline runs at the current `now`. A
/// repeating schedule runs its action once, at its start, and returns a finished handle (an endless
/// timer cannot run "at once"). Tasks preferring it run inline on the enqueuing thread. It does not set
/// ``/AsyncSchedulers/Schedulers/current``.
public final class ImmediateTestScheduler: Scheduler {
  /// A name for debugging.
  public let name: String
  private let clock = Mutex<SchedulerInstant>(.zero)

  /// Creates a scheduler whose clock starts at `now`.
  public init(name: String = "ImmediateTestScheduler", now: SchedulerInstant = .zero) {
    self.name = name
    clock.withCriticalRegion { $0 = now }
  }

  /// The virtual current instant: the latest deadline reached so far.
  public var now: SchedulerInstant { clock.withCriticalRegion { $0 } }

  /// Runs `action` inline.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction {
    action()
    return .finished
  }

  /// Moves `now` to `deadline` (if later) and runs `action` inline.
  @discardableResult
  public func schedule(
    at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    clock.withCriticalRegion { $0 = max($0, deadline) }
    action()
    return .finished
  }

  /// Moves `now` to `start` (if later) and runs `action` once.
  @discardableResult
  public func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration = .zero,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    preconditionValidRepeating(interval: interval, leeway: leeway)
    return schedule(at: start, action)
  }

  /// Runs the job inline on the enqueuing thread.
  public func enqueue(_ job: consuming ExecutorJob) {
    UnownedJob(job).runSynchronously(on: asUnownedTaskExecutor())
  }
}
