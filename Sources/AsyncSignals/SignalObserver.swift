import AsyncSchedulers
import Synchronization

/// The producer's side of one subscription: where a signal sends its values and its terminal event.
///
/// The event grammar is enforced here, whatever the producer does:
/// - Events reach the subscriber one at a time, never overlapping, in the order they were sent, even
///   when the producer sends from several threads at once: a send from another thread while one is
///   delivered waits its turn and then delivers its own event on its own thread; a send made
///   re-entrantly by the subscriber's handler is delivered right after the current event, on the thread
///   already delivering.
/// - After ``finish()`` or ``fail(_:)``, and once the subscription is disposed, sends are ignored.
/// - The resources the producer returned from its subscribe closure are disposed exactly once: after
///   the terminal event has been delivered, or when the subscription is disposed (on the disposing
///   thread), whichever comes first.
///
/// The subscriber's handler runs on the sending thread, with no lock held; it may dispose the
/// subscription or send to other signals. A send delivers its own event: while another thread delivers,
/// it waits (blocking) for the events sent before it, at most one per other sending thread plus their
/// re-entrant sends, and never for events sent after it; a send made re-entrantly from the handler is
/// delivered by the same thread right after the current event. So a handler must not block waiting for
/// another thread that is itself sending to this subscription (that would deadlock, as with a lock).
/// Sends are synchronous: task cancellation does not interrupt a waiting send; disposing the
/// subscription does (the waiting send returns without delivering).
public final class SignalObserver<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline typealias Handler = SignalHandler<Element, Failure>

  /// The subscription's state, of no generic type: ``dispose()`` and the other calls made through
  /// ``SignalObserverHandle`` run unspecialized, and there each generic type touched costs a runtime
  /// metadata lookup.
  @usableFromInline let state: Mutex<SignalObserverState>

  @inlinable init(_ handler: @escaping @Sendable (SignalEvent<Element, Failure>) -> Void) {
    state = Mutex(SignalObserverState(handler: Handler(handler)))
  }

  /// The handler `state` holds, as its type (it holds only this observer's `Handler`).
  @inlinable static func handler(of state: SignalObserverState) -> Handler? {
    state.handler.map { unsafeDowncast($0, to: Handler.self) }
  }

  /// A re-entrant event the machine queued, as its type (it queues only this observer's events).
  @inlinable static func event(_ queued: any Sendable) -> SignalEvent<Element, Failure> {
    queued as! SignalEvent<Element, Failure>
  }

  /// Sends a value; ignored once the signal has ended or the subscription is disposed.
  @inlinable public func send(_ value: Element) { send(.next(value)) }

  /// Ends the signal successfully; later events are ignored.
  @inlinable public func finish() { send(.finished) }

  /// Ends the signal with `error`; later events are ignored.
  @inlinable public func fail(_ error: Failure) { send(.failed(error)) }

  /// Whether the signal has ended or the subscription was disposed: sending is pointless (a long
  /// producer loop should check it and stop).
  @inlinable public var isTerminated: Bool { state.withCriticalRegion { $0.machine.isTerminated } }

  /// Sends `event`, enforcing the grammar: delivered on this thread, after the events sent before it
  /// (waiting, if another thread is delivering, for at most those), never after a later one.
  @inlinable public func send(_ event: SignalEvent<Element, Failure>) { _ = sendReportingOpen(event) }

  /// Sends `event` as ``send(_:)-(SignalEvent<Element,Failure>)`` does, and says whether the
  /// subscription was still open after it (`!isTerminated`), read in the same critical regions the send
  /// takes: a producer loop checks its result instead of taking the lock again for ``isTerminated``.
  @inlinable package func sendReportingOpen(_ event: SignalEvent<Element, Failure>) -> Bool {
    let thread = SendingThread.current
    switch decide(event, from: thread) {
    case .none(let open):
      return open
    case .deliver(let handler):
      return deliverFrom(event, handler: handler)
    case .wait(let turn):
      guard let granted = awaitTurn(turn, thread: thread) else { return false }
      return deliverFrom(event, handler: granted)
    }
  }

  /// Takes a send to the state machine: drop it, deliver it now, or wait for the turn.
  @inlinable func decide(_ event: SignalEvent<Element, Failure>, from thread: SendingThread) -> SendDecision {
    state.withCriticalRegion { state -> SendDecision in
      switch state.machine.send(event, isTerminal: event.isTerminal, from: thread, makeWaiter: { SendTurn() }) {
      case .drop: return .none(open: false)
      case .queued: return .none(open: !state.machine.isTerminated)
      case .deliver: return Self.handler(of: state).map { .deliver($0) } ?? .none(open: false)
      case .wait(let turn): return .wait(turn)
      }
    }
  }

  /// Waits for the turn `turn` stands for; the handler to deliver with, or `nil` when the subscription
  /// was disposed meanwhile (the send returns without delivering).
  ///
  /// When the subscription was disposed after the turn was handed to this thread but before it woke,
  /// nobody else will deliver again (the turn is this thread's, and every send is dropped): the handler
  /// is released here, outside the lock, as the deliverer would have released it.
  @inlinable func awaitTurn(_ turn: SendTurn, thread: SendingThread) -> Handler? {
    turn.wait()
    let (granted, released) = state.withCriticalRegion { state -> (Handler?, Handler?) in
      if state.machine.turnTaken(by: thread) { return (Self.handler(of: state), nil) }
      guard state.machine.isTerminated, state.machine.deliverer == thread else { return (nil, nil) }
      defer { state.handler = nil }
      return (nil, Self.handler(of: state))
    }
    withExtendedLifetime(released) {}
    return granted
  }

  /// Sends `events` in order, as that many calls of ``sendReportingOpen(_:)`` from this thread would,
  /// and says whether the subscription is still open after them; the events after the one that ended
  /// the subscription are not sent.
  ///
  /// Cheaper per event: while this thread keeps delivering, the end of one event's delivery and the
  /// send of the next are one critical region (the same two machine events, with no other thread
  /// between them: an order the separate calls could also have had), and the handler is retained once.
  /// A re-entrant send is delivered before the next event; a sender from another thread that queued
  /// meanwhile gets its turn first, and the rest of `events` go through ``sendReportingOpen(_:)``.
  /// The next event is read from `events` before the previous delivery ends (while this thread is
  /// still the deliverer), so reading an element must be cheap and free of side effects: an array, or
  /// a lazy `map` of one that only wraps values.
  @inlinable package func sendAll(_ events: some Collection<SignalEvent<Element, Failure>>) -> Bool {
    var iterator = events.makeIterator()
    guard let first = iterator.next() else { return !isTerminated }
    let thread = SendingThread.current
    let handler: Handler
    switch decide(first, from: thread) {
    case .none(let open):
      guard open else { return false }
      return sendEach(&iterator)
    case .wait(let turn):
      // Another thread is delivering: this event waits its turn, like any send; so do the rest.
      guard let granted = awaitTurn(turn, thread: thread), deliverFrom(first, handler: granted) else { return false }
      return sendEach(&iterator)
    case .deliver(let current):
      handler = current
    }
    var current = first
    var exhausted = false
    while true {
      handler.body(current)
      let upcoming = exhausted ? nil : iterator.next()
      if upcoming == nil { exhausted = true }
      let step = state.withCriticalRegion { state -> BatchStep in
        switch state.machine.delivered() {
        case .deliver(let queued):
          return .deliver(Self.event(queued), pending: upcoming)
        case .handOff(let turn):
          return .handOff(turn, open: !state.machine.isTerminated, pending: upcoming)
        case .end(let release):
          if state.machine.isTerminated { state.handler = nil }
          // (An open subscription's delivery ends with nothing to release.)
          guard let upcoming, !state.machine.isTerminated else {
            return .end(release, open: !state.machine.isTerminated, pending: upcoming)
          }
          // Nobody delivers now (this thread just stopped) and the subscription is open: this send
          // makes this thread the deliverer again.
          let action = state.machine.send(
            upcoming, isTerminal: upcoming.isTerminal, from: thread, makeWaiter: { SendTurn() })
          guard case .deliver = action else {
            // An internal invariant (the state machine's), not an argument: fatalError keeps the message
            // in release builds.
            fatalError("SignalObserver.sendAll: a send with no deliverer on an open subscription must deliver")
          }
          return .deliver(upcoming, pending: nil)
        }
      }
      switch step {
      case .deliver(let next, nil):
        current = next
      case .deliver(let queued, let pending?):
        // A re-entrant event goes first, and what was queued behind it; then the batch, one at a time.
        guard deliverFrom(queued, handler: handler), sendReportingOpen(pending) else { return false }
        return sendEach(&iterator)
      case .handOff(let turn, let open, let pending):
        turn.signal()
        guard open, let pending else { return open }
        guard sendReportingOpen(pending) else { return false }
        return sendEach(&iterator)
      case .end(let release, let open, let pending):
        release?.dispose()
        guard open, let pending else { return open }
        guard sendReportingOpen(pending) else { return false }
        return sendEach(&iterator)
      }
    }
  }

  /// Delivers `event`, this thread being the deliverer with `handler`, then what was queued behind it
  /// (the rest of ``sendReportingOpen(_:)`` after the turn is taken); whether the subscription is open.
  @inlinable func deliverFrom(_ event: SignalEvent<Element, Failure>, handler: Handler) -> Bool {
    var handler = handler
    var current = event
    while true {
      handler.body(current)
      let step = state.withCriticalRegion { state -> DeliveryStep in
        switch state.machine.delivered() {
        case .deliver(let next):
          return Self.handler(of: state).map { .deliver(Self.event(next), $0) } ?? .end(nil, open: false)
        case .handOff(let turn):
          return .handOff(turn, open: !state.machine.isTerminated)
        case .end(let release):
          if state.machine.isTerminated { state.handler = nil }
          return .end(release, open: !state.machine.isTerminated)
        }
      }
      switch step {
      case .deliver(let next, let nextHandler):
        handler = nextHandler
        current = next
      case .handOff(let turn, let open):
        turn.signal()
        return open
      case .end(let release, let open):
        release?.dispose()
        return open
      }
    }
  }

  /// Sends the rest of a batch one event at a time; stops once the subscription has ended.
  @inlinable func sendEach<Events: IteratorProtocol<SignalEvent<Element, Failure>>>(_ iterator: inout Events) -> Bool {
    while let event = iterator.next() {
      guard sendReportingOpen(event) else { return false }
    }
    return true
  }

  /// What a batch deliverer does after an event, once it leaves the lock; `pending`: the batch's next
  /// event when it was not sent in the region (it is sent after what the step does).
  @usableFromInline enum BatchStep {
    case deliver(SignalEvent<Element, Failure>, pending: SignalEvent<Element, Failure>?)
    case handOff(SendTurn, open: Bool, pending: SignalEvent<Element, Failure>?)
    case end((any Disposable)?, open: Bool, pending: SignalEvent<Element, Failure>?)
  }

  /// What a send does once it leaves the lock.
  @usableFromInline enum SendDecision {
    /// Nothing to deliver now; whether the subscription is still open.
    case none(open: Bool)
    case deliver(Handler)
    case wait(SendTurn)
  }

  /// What the deliverer does after an event, once it leaves the lock; `open`: whether the subscription
  /// is still open.
  @usableFromInline enum DeliveryStep {
    case deliver(SignalEvent<Element, Failure>, Handler)
    case handOff(SendTurn, open: Bool)
    case end((any Disposable)?, open: Bool)
  }

  /// Keeps the producer's resources for this subscription, or disposes them now if it has ended.
  @inlinable func attach(_ resources: any Disposable) {
    state.withCriticalRegion { $0.machine.attach(resources) }?.dispose()
  }

  /// Ends the subscription: nothing more is delivered, and the producer's resources are disposed.
  @usableFromInline func dispose() {
    let (disposal, handler) = state.withCriticalRegion { state in
      let disposal = state.machine.dispose()
      // The handler and the dropped events are released outside the lock (their deinitializers may
      // send to, or dispose, this very subscription).
      defer { if !state.machine.isDelivering { state.handler = nil } }
      return (disposal, state.handler)
    }
    withExtendedLifetime((handler, disposal.dropped)) {}
    // The senders waiting for their turn return without delivering.
    for turn in disposal.waiters { turn.signal() }
    disposal.release?.dispose()
  }

  @usableFromInline var isDisposed: Bool { state.withCriticalRegion { $0.machine.phase == .disposed } }
}

/// A subscriber's handler, boxed: passed out of a lock as a reference (a retain), where a bare closure
/// of a generic type would be re-abstracted, and so allocated, on every event.
@usableFromInline final class SignalHandler<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline let body: @Sendable (SignalEvent<Element, Failure>) -> Void
  @inlinable init(_ body: @escaping @Sendable (SignalEvent<Element, Failure>) -> Void) { self.body = body }
}
