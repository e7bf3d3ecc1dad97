import AsyncSchedulers
import Synchronization

/// The state of one `scheduleRecursive`: the action, and a group holding the iterations scheduled and
/// not yet run, so disposing stops them all (Rx's `RecursiveImmediateScheduler` and
/// `AnyRecursiveScheduler`). Each iteration leaves the group when it has run, so a long recursion
/// holds only what is pending.
final class RecursiveScheduling<State>: Disposable, Sendable {
  typealias Action = @Sendable (State, RecursiveScheduling<State>) -> Void

  private let scheduler: any ImmediateSchedulerType
  private let timed: (any SchedulerType)?
  /// The action, in a struct: a closure stored directly as a generic Mutex's value would be
  /// reabstracted on every `inout` access and written back wrapped in two more thunks (measured: a
  /// recursion of 100,000 steps built a chain of 200,000 thunks whose release overflowed the stack).
  private struct Slot {
    var action: Action?
  }

  private let slot: Mutex<Slot>
  private let pending = CompositeDisposable()

  init(scheduler: any ImmediateSchedulerType, timed: (any SchedulerType)?, action: @escaping Action) {
    self.scheduler = scheduler
    self.timed = timed
    self.slot = Mutex(Slot(action: action))
  }

  var isDisposed: Bool { pending.isDisposed }

  /// Schedules one more iteration with `state`, after `dueTime` when given (on the timed scheduler).
  func recurse(_ state: State, dueTime: RxTimeInterval?) {
    guard !pending.isDisposed else { return }
    let iteration = Iteration()
    let body: @Sendable (State) -> any Disposable = { [self] state in
      if let action = slot.withCriticalRegion({ $0.action }) { action(state, self) }
      iteration.finish()
      return Disposables.create()
    }
    let handle =
      if let dueTime, let timed {
        timed.scheduleRelative(state, dueTime: dueTime, action: body)
      } else {
        scheduler.schedule(state, action: body)
      }
    iteration.attach(pending.add(handle))
  }

  func dispose() {
    let released = slot.withCriticalRegion { slot -> Action? in
      defer { slot.action = nil }
      return slot.action
    }
    pending.dispose()
    withExtendedLifetime(released) {}
  }

  /// One scheduled iteration: it leaves the group when it has run, whichever of running and joining
  /// the group happens first (an immediate scheduler runs it before `schedule` returns).
  private final class Iteration: Sendable {
    private let state = Mutex<(ran: Bool, handle: CompositeDisposable.Handle?)>((false, nil))

    func attach(_ handle: CompositeDisposable.Handle) {
      let ran = state.withCriticalRegion { state -> Bool in
        if !state.ran { state.handle = handle }
        return state.ran
      }
      if ran { handle.dispose() }
    }

    func finish() {
      let handle = state.withCriticalRegion { state -> CompositeDisposable.Handle? in
        state.ran = true
        defer { state.handle = nil }
        return state.handle
      }
      handle?.dispose()
    }
  }
}
