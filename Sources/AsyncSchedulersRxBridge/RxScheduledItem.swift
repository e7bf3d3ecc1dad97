import AsyncSchedulers
import Synchronization

/// One scheduled Rx action in one object: the job the core scheduler runs, the disposable the caller
/// gets back, and the slot for the disposable the action returns (what Rx keeps in a
/// `SingleAssignmentDisposable`), plus the timer handle of a relative schedule.
final class RxScheduledItem<State: Sendable>: RunnableJob, Disposable, Sendable {
  typealias Action = @Sendable (State) -> any Disposable

  private struct Slot {
    var work: (state: State, action: Action)?
    var result: (any Disposable)?
    var timer: (any Disposable)?
    var disposed = false
  }

  private let slot: Mutex<Slot>

  init(_ state: State, _ action: @escaping Action) { slot = Mutex(Slot(work: (state, action))) }

  /// Runs the action unless it was disposed; keeps what it returns, or disposes it at once when the
  /// item was disposed while the action ran. Called on the scheduler, with no lock held.
  func runJob() {
    guard let work = slot.withCriticalRegion({ slot -> (state: State, action: Action)? in
      guard !slot.disposed else { return nil }
      defer { slot.work = nil }
      return slot.work
    }) else { return }
    let result = work.action(work.state)
    let disposedMeanwhile = slot.withCriticalRegion { slot -> Bool in
      if !slot.disposed { slot.result = result }
      return slot.disposed
    }
    if disposedMeanwhile { result.dispose() }
  }

  var isJobCancelled: Bool { isDisposed }

  var isDisposed: Bool { slot.withCriticalRegion { $0.disposed } }

  /// Keeps the timer that will run this item, to cancel it on dispose.
  func attach(timer: any Disposable) {
    let disposed = slot.withCriticalRegion { slot -> Bool in
      if !slot.disposed { slot.timer = timer }
      return slot.disposed
    }
    if disposed { timer.dispose() }
  }

  /// Before the action runs: it never will. After: disposes what it returned. Outside the lock.
  func dispose() {
    let taken = slot.withCriticalRegion { slot -> Slot? in
      guard !slot.disposed else { return nil }
      defer { slot = Slot(work: nil, result: nil, timer: nil, disposed: true) }
      return slot
    }
    guard let taken else { return }
    taken.timer?.dispose()
    taken.result?.dispose()
    withExtendedLifetime(taken.work) {}
  }
}
