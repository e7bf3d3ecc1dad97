import AsyncSchedulers
import Synchronization

/// One scheduled Rx action in one object: the job the core scheduler runs, the disposable the caller
/// gets back, and the slot for the disposable the action returns (what Rx keeps in a
/// `SingleAssignmentDisposable`), plus the timer handle of a relative schedule.
///
/// The state and the action live in the generic subclass ``RxStatefulItem``; this class is not
/// generic, so running an item through the `RunnableJob` witness instantiates no type metadata
/// (measured: generic metadata lookups were the largest cost of an Rx `schedule` with a generic item),
/// and nothing wraps the state in a closure (one allocation per schedule).
@usableFromInline class RxScheduledItem: RunnableJob, Disposable, @unchecked Sendable {
  // Why @unchecked Sendable: `slot` is a Mutex; the subclass's action is read and cleared only by the
  // one thread that moved the item out of `pending` (the runner in `runJob`, or the first `dispose`),
  // under this lock, so no two threads touch it.

  @usableFromInline enum Phase { case pending, running, ran, disposed }

  @usableFromInline struct Slot {
    @usableFromInline var phase = Phase.pending
    @usableFromInline var result: (any Disposable)?
    @usableFromInline var timer: (any Disposable)?
    @inlinable init() {}
  }

  @usableFromInline let slot = Mutex(Slot())

  @inlinable init() {}

  /// Runs the action (subclass).
  @usableFromInline func invoke() -> any Disposable { Disposables.create() }

  /// Drops the action unrun (subclass), outside the lock.
  @usableFromInline func discard() {}

  /// Runs the action unless it was disposed; keeps what it returns, or disposes it at once when the
  /// item was disposed while the action ran. Called on the scheduler, with no lock held.
  @usableFromInline final func runJob() {
    guard
      slot.withCriticalRegion({ slot -> Bool in
        guard slot.phase == .pending else { return false }
        slot.phase = .running
        return true
      })
    else { return }
    let result = invoke()
    let disposedMeanwhile = slot.withCriticalRegion { slot -> Bool in
      guard slot.phase == .running else { return true }
      slot.phase = .ran
      slot.result = result
      return false
    }
    if disposedMeanwhile { result.dispose() }
  }

  @usableFromInline final var isJobCancelled: Bool { isDisposed }

  @usableFromInline final var isDisposed: Bool { slot.withCriticalRegion { $0.phase == .disposed } }

  /// Keeps the timer that will run this item, to cancel it on dispose.
  final func attach(timer: any Disposable) {
    let disposed = slot.withCriticalRegion { slot -> Bool in
      if slot.phase != .disposed { slot.timer = timer }
      return slot.phase == .disposed
    }
    if disposed { timer.dispose() }
  }

  /// Before the action runs: it never will. After: disposes what it returned. Outside the lock.
  @usableFromInline final func dispose() {
    let taken = slot.withCriticalRegion { slot -> (wasPending: Bool, slot: Slot)? in
      guard slot.phase != .disposed else { return nil }
      let taken = (slot.phase == .pending, slot)
      slot = Slot()
      slot.phase = .disposed
      return taken
    }
    guard let taken else { return }
    taken.slot.timer?.dispose()
    taken.slot.result?.dispose()
    if taken.wasPending { discard() }
  }
}

/// An item running `action(state)`; the action is released once it ran or was discarded.
@usableFromInline final class RxStatefulItem<State>: RxScheduledItem, @unchecked Sendable {
  // Why @unchecked Sendable: see RxScheduledItem; `state` is a `let`. As in RxSwift, neither the state
  // nor the action need be `Sendable`: the item hands the state to the action once, on the scheduler
  // (see `RxClosure` for the contract an app's closure runs under); the state is released with the
  // item, on whichever thread lets it go last, as RxSwift's scheduled items release theirs.
  @usableFromInline let state: State
  @usableFromInline var action: ((State) -> any Disposable)?

  @inlinable init(_ state: State, _ action: @escaping (State) -> any Disposable) {
    self.state = state
    self.action = action
  }

  @usableFromInline override func invoke() -> any Disposable {
    let action = self.action
    self.action = nil
    return action?(state) ?? Disposables.create()
  }

  @usableFromInline override func discard() { action = nil }
}
