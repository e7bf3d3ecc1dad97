import AsyncSchedulers
import Foundation

/// RxSwift's scheduler of timed work: immediate work plus relative and periodic scheduling.
public protocol SchedulerType: ImmediateSchedulerType {
  /// The scheduler's current time (wall clock for the real schedulers, virtual for virtual ones).
  var now: RxTime { get }

  /// Schedules `action(state)` to run `dueTime` from now. `.never` never runs; a negative due time runs
  /// as soon as possible. Disposing the returned disposable before the action starts means it never
  /// runs.
  func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable

  /// Runs `action` on the grid `now + startAfter + period × k`, each time with the state the previous
  /// tick returned, until the returned disposable is disposed.
  ///
  /// Schedulers that do not implement it get an emulation by relative scheduling (see the protocol
  /// extension). Ticks that come due while the scheduler is stalled are coalesced into one (no
  /// catch-up burst), as the core's repeating timers do.
  /// - Precondition: `period` is positive or `.never` (one tick only).
  func schedulePeriodic<StateType>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping (StateType) -> StateType
  ) -> any Disposable
}

extension SchedulerType {
  /// Emulates periodic scheduling by relative scheduling (Rx's `SchedulePeriodicRecursive`), anchored to
  /// its grid so it does not drift: after each tick it schedules the next grid point after `now`,
  /// coalescing the points a stall skipped (Rx itself queues them and runs them back to back).
  ///
  /// The action runs on this scheduler, one tick at a time. Disposing the returned disposable stops it.
  /// - Precondition: `period` is positive or `.never` (one tick only).
  public func schedulePeriodic<StateType>(
    _ state: StateType, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping (StateType) -> StateType
  ) -> any Disposable {
    let action = rxClosure(action)
    return PeriodicEmulation.start(
      on: self, state: RxElement(state), startAfter: startAfter, period: period,
      action: { RxElement(action($0.value)) })
  }

  /// Schedules `action` recursively with due times (Rx's `AnyRecursiveScheduler`): the action gets the
  /// state and a recursive scheduler whose `schedule(_:dueTime:)` runs the action again later. The
  /// recursion is flattened through ``scheduleRelative(_:dueTime:action:)``.
  ///
  /// The action runs on this scheduler. Disposing the returned disposable stops the recursion.
  public func scheduleRecursive<State>(
    _ state: State, dueTime: RxTimeInterval,
    action: @escaping (_ state: State, _ scheduler: AnyRecursiveScheduler<State>) -> Void
  ) -> any Disposable {
    let action = rxClosure(action)
    let recursion = RecursiveScheduling<State>(scheduler: self, timed: self) { state, recursion in
      action(state, AnyRecursiveScheduler(recursion: recursion))
    }
    recursion.recurse(state, dueTime: dueTime)
    return recursion
  }
}

/// The handle a recursive action gets to schedule itself again (Rx's `AnyRecursiveScheduler`).
public struct AnyRecursiveScheduler<State>: Sendable {
  let recursion: RecursiveScheduling<State>

  /// Schedules the action again with `state`, `dueTime` from now (on the scheduler's clock).
  public func schedule(_ state: State, dueTime: RxTimeInterval) { recursion.recurse(state, dueTime: dueTime) }

  /// Schedules the action again with `state`, as soon as possible.
  public func schedule(_ state: State) { recursion.recurse(state, dueTime: nil) }

  /// Stops the recursion (the same as disposing the disposable `scheduleRecursive` returned).
  public func dispose() { recursion.dispose() }
}
