import AsyncSchedulers
import Synchronization

/// A subscriber of a ``ReplaySignalSubject``: its observer, and the hand-over of its replay
/// (``ReplayHandoffStateMachine``, taken under this object's lock and performed after releasing it).
///
/// The subject's command handler registers it and hands it the replay; the subscribing thread sends the
/// replay, with none of the subject's machinery held, then goes live; live events that come meanwhile
/// are held and sent after the replay, in order.
@usableFromInline final class ReplayingObserver<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline let observer: SignalObserver<Element, Failure>
  @usableFromInline let machine = Mutex(ReplayHandoffStateMachine<SignalEvent<Element, Failure>>())
  /// Set once the machine is live, which it stays: live events then go to the observer with no lock.
  /// Written and read only by the thread sending the subject's events (they come one at a time).
  @usableFromInline let isLive = Atomic<Bool>(false)

  @inlinable init(_ observer: SignalObserver<Element, Failure>) { self.observer = observer }

  /// The subscribe command ran with `replay` (values, and the end when the subject had ended): sent by
  /// the subscribing thread once its call returns, or now, when that call has already returned.
  @inlinable func commandRan(replay: [SignalEvent<Element, Failure>]) {
    perform(machine.withCriticalRegion { $0.commandRan(replay: replay) })
  }

  /// The subscribing thread's call returned: it sends the replay and what was held meanwhile.
  @inlinable func callerReturned() {
    var action = machine.withCriticalRegion { $0.callerReturned() }
    while true {
      if case .none = action { return }
      perform(action)
      action = machine.withCriticalRegion { $0.replayed() }
    }
  }

  /// A live event: sent now, or held until the replay has been sent.
  @inlinable func send(_ event: SignalEvent<Element, Failure>) {
    if isLive.load(ordering: .acquiring) {
      observer.send(event)
      return
    }
    let (action, live) = machine.withCriticalRegion { machine in (machine.live(event), machine.isLive) }
    perform(action)
    if live { isLive.store(true, ordering: .releasing) }
  }

  @inlinable func perform(_ action: ReplayHandoffStateMachine<SignalEvent<Element, Failure>>.Action) {
    switch action {
    case .none: return
    case .sendOne(let event): observer.send(event)
    case .send(let events): for event in events { observer.send(event) }
    }
  }
}
