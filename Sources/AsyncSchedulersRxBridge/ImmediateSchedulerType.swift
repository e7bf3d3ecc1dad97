import AsyncSchedulers

/// RxSwift's scheduler of immediate work: runs an action with a state on the scheduler.
///
/// Schedulers are shared across threads, so a scheduler is `Sendable`. Its requirements have RxSwift's
/// signatures: the state and the action need not be `Sendable`, so RxSwift code written in Swift 6
/// language mode (a main-actor view model scheduling on `MainScheduler.instance`) compiles unchanged,
/// and a scheduler written for RxSwift conforms as it is. The action runs on the scheduler, once; what
/// it touches there is the app's part, as under RxSwift (see `RxClosure`).
public protocol ImmediateSchedulerType: Sendable {
  /// Schedules `action(state)` to run on this scheduler as soon as it can.
  ///
  /// The action runs on the scheduler's thread or queue, must not block for long, and returns a
  /// disposable for whatever it starts. Disposing the returned disposable before the action starts
  /// means it never runs; after it ran, disposing it disposes what the action returned.
  func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable
}

extension ImmediateSchedulerType {
  /// Schedules `action` recursively (Rx's `RecursiveImmediateScheduler`): each call of `recurse` inside
  /// the action schedules the action again with the new state, through ``schedule(_:action:)``, so
  /// the recursion is flattened (no stack growth on a trampolining scheduler).
  ///
  /// The action runs on this scheduler. Disposing the returned disposable stops the recursion: pending
  /// iterations never run and `recurse` does nothing afterwards.
  public func scheduleRecursive<State>(
    _ state: State, action: @escaping (_ state: State, _ recurse: (State) -> Void) -> Void
  ) -> any Disposable {
    let action = rxClosure(action)
    let recursion = RecursiveScheduling<State>(scheduler: self, timed: nil) { state, recursion in
      action(state) { recursion.recurse($0, dueTime: nil) }
    }
    recursion.recurse(state, dueTime: nil)
    return recursion
  }
}
