import AsyncSchedulers

/// RxSwift's trampoline, on the core `TrampolineScheduler` (one queue per thread).
///
/// The outermost ``schedule(_:action:)`` on a thread runs its action at once, on the calling thread,
/// then runs what the action (and what they) scheduled, first in first out, before returning; nested
/// schedules are queued, never recursed into. Actions must not block.
public final class CurrentThreadScheduler: ImmediateSchedulerType {
  private let scheduling = CoreScheduling(core: TrampolineScheduler.shared, leeway: .nanoseconds(0))

  private init() {}

  /// The trampoline.
  public static let instance = CurrentThreadScheduler()

  /// Whether a ``schedule(_:action:)`` call on this thread would run at once (no trampoline is running
  /// here): `true` outside any scheduled action, `false` inside one.
  public static var isScheduleRequired: Bool { !TrampolineScheduler.isTrampolineActive }

  /// The core scheduler.
  public var core: TrampolineScheduler { .shared }

  /// Runs `action(state)` now if no trampoline runs on this thread, else queues it after the running
  /// action and those queued before it. Disposing the result before it runs means it never runs.
  public func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    scheduling.schedule(state, action: action)
  }
}
