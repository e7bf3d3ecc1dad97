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
  @usableFromInline struct State {
    @usableFromInline var machine = SignalObserverStateMachine<SignalEvent<Element, Failure>, SendTurn, SendingThread>()
    /// The subscriber's handler, released once nothing more can be delivered.
    @usableFromInline var handler: Handler?

    @inlinable init(handler: Handler?) { self.handler = handler }
  }

  @usableFromInline typealias Handler = SignalHandler<Element, Failure>

  @usableFromInline let state: Mutex<State>

  @usableFromInline init(_ handler: @escaping @Sendable (SignalEvent<Element, Failure>) -> Void) {
    state = Mutex(State(handler: Handler(handler)))
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
    let decision = state.withCriticalRegion { state -> SendDecision in
      switch state.machine.send(event, isTerminal: event.isTerminal, from: thread, makeWaiter: { SendTurn() }) {
      case .drop: return .none(open: false)
      case .queued: return .none(open: !state.machine.isTerminated)
      case .deliver: return state.handler.map { .deliver($0) } ?? .none(open: false)
      case .wait(let turn): return .wait(turn)
      }
    }
    var handler: Handler
    switch decision {
    case .none(let open):
      return open
    case .deliver(let current):
      handler = current
    case .wait(let turn):
      turn.wait()
      let granted = state.withCriticalRegion { state in
        state.machine.turnTaken(by: thread) ? state.handler : nil
      }
      guard let granted else { return false }
      handler = granted
    }
    var current = event
    while true {
      handler.body(current)
      let step = state.withCriticalRegion { state -> DeliveryStep in
        switch state.machine.delivered() {
        case .deliver(let next):
          return state.handler.map { .deliver(next, $0) } ?? .end(nil, open: false)
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
