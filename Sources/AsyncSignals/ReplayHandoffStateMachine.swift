/// The replay of one new subscriber of a ``ReplaySignalSubject``, handed from the subject's command
/// handler to the subscribing thread, so that the replay runs the subscriber's handler with nothing of
/// the subject's held (RxSwift's `ReplaySubject` after its lock-inversion fix).
///
/// The subscribe command registers the subscriber and takes the replay (``commandRan(replay:)``); the
/// subscribing thread, once its command has run, sends the replay itself (``callerReturned()``), then
/// the live events that reached the subscriber meanwhile, held here in order (``live(_:)``,
/// ``replayed()``), and the subscriber goes live. When the command could not run before the subscribing
/// call returned (a subscription made re-entrantly from a handler of the subject, queued behind that
/// delivery), the command sends the replay itself, as before.
///
/// Pure: ``ReplayingObserver`` calls it under its lock and performs the action after releasing it.
@usableFromInline struct ReplayHandoffStateMachine<Event> {
  @usableFromInline enum State {
    /// The subscribe command has not run.
    case pending
    /// The command ran before the subscribing call returned; nobody has taken the replay yet.
    case handedOver(replay: [Event], held: [Event])
    /// The subscribing thread is sending the replay, then what was held.
    case replaying(held: [Event])
    /// The subscribing call returned before the command ran: the command sends the replay.
    case inline
    /// Replay done: live events go straight to the subscriber.
    case live
  }

  /// What to send now, on the calling thread, outside the lock.
  @usableFromInline enum Action {
    case none
    /// Send this event.
    case sendOne(Event)
    /// Send these events, in order.
    case send([Event])
  }

  @usableFromInline var state = State.pending

  @inlinable init() {}

  /// Whether live events go straight to the subscriber: the replay and what was held have been sent.
  @inlinable var isLive: Bool {
    if case .live = state { return true }
    return false
  }

  /// The subscribe command ran (in the subject's command handler) with the replay to send.
  @inlinable mutating func commandRan(replay: [Event]) -> Action {
    switch state {
    case .pending:
      state = .handedOver(replay: replay, held: [])
      return .none
    case .inline:
      state = .live
      return .send(replay)
    case .handedOver, .replaying, .live:
      return .none
    }
  }

  /// The subscribing call returned from sending its command.
  @inlinable mutating func callerReturned() -> Action {
    switch state {
    case .pending:
      state = .inline
      return .none
    case .handedOver(let replay, let held):
      state = .replaying(held: [])
      return .send(replay + held)
    case .replaying, .inline, .live:
      return .none
    }
  }

  /// The subscribing thread sent what the last action gave it: what was held meanwhile comes next, or
  /// the subscriber goes live.
  @inlinable mutating func replayed() -> Action {
    guard case .replaying(let held) = state else { return .none }
    if held.isEmpty {
      state = .live
      return .none
    }
    state = .replaying(held: [])
    return .send(held)
  }

  /// A live event for the subscriber (from the subject's command handler): held while the replay is
  /// being sent, else sent now.
  @inlinable mutating func live(_ event: Event) -> Action {
    switch state {
    case .live, .pending, .inline:
      return .sendOne(event)
    case .handedOver(let replay, var held):
      state = .live  // releases the state's copy, so that the append does not copy the array
      held.append(event)
      state = .handedOver(replay: replay, held: held)
      return .none
    case .replaying(var held):
      state = .live
      held.append(event)
      state = .replaying(held: held)
      return .none
    }
  }
}
