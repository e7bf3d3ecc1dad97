import AsyncSchedulers
import Synchronization

/// The producer's side of one subscription: where a signal sends its values and its terminal event.
///
/// The event grammar is enforced here, whatever the producer does:
/// - Events reach the subscriber one at a time, never overlapping, even when the producer sends from
///   several threads at once; a send made while another is delivered (another thread, or the
///   subscriber's own handler sending re-entrantly) is queued and delivered right after, in order, on
///   the thread already delivering.
/// - After ``finish()`` or ``fail(_:)``, and once the subscription is disposed, sends are ignored.
/// - The resources the producer returned from its subscribe closure are disposed exactly once: after
///   the terminal event has been delivered, or when the subscription is disposed (on the disposing
///   thread), whichever comes first.
///
/// The subscriber's handler runs on the sending thread, with no lock held; it may dispose the
/// subscription or send to other signals. Sending never blocks on the subscriber beyond running its
/// handler.
public final class SignalObserver<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline struct State {
    @usableFromInline var machine = SignalObserverStateMachine<SignalEvent<Element, Failure>>()
    /// The subscriber's handler, released once nothing more can be delivered.
    @usableFromInline var handler: (@Sendable (SignalEvent<Element, Failure>) -> Void)?

    @inlinable init(handler: (@Sendable (SignalEvent<Element, Failure>) -> Void)?) { self.handler = handler }
  }

  @usableFromInline let state: Mutex<State>

  @usableFromInline init(_ handler: @escaping @Sendable (SignalEvent<Element, Failure>) -> Void) {
    state = Mutex(State(handler: handler))
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

  /// Sends `event`, enforcing the grammar.
  @inlinable public func send(_ event: SignalEvent<Element, Failure>) {
    let handler = state.withCriticalRegion { state -> (@Sendable (SignalEvent<Element, Failure>) -> Void)? in
      state.machine.send(event, isTerminal: event.isTerminal) == .deliver ? state.handler : nil
    }
    guard var handler else { return }
    var current = event
    while true {
      handler(current)
      let (next, release, nextHandler) = state.withCriticalRegion { state in
        let (next, release) = state.machine.delivered()
        if next == nil && state.machine.isTerminated { state.handler = nil }
        return (next, release, state.handler)
      }
      release?.dispose()
      guard let next, let nextHandler else { return }
      handler = nextHandler
      current = next
    }
  }

  /// Keeps the producer's resources for this subscription, or disposes them now if it has ended.
  @inlinable func attach(_ resources: any Disposable) {
    state.withCriticalRegion { $0.machine.attach(resources) }?.dispose()
  }

  /// Ends the subscription: nothing more is delivered, and the producer's resources are disposed.
  @usableFromInline func dispose() {
    let (release, handler, dropped) = state.withCriticalRegion { state in
      let (release, _, dropped) = state.machine.dispose()
      // The handler and the dropped events are released outside the lock (their deinitializers may
      // send to, or dispose, this very subscription).
      defer { if !state.machine.isDelivering { state.handler = nil } }
      return (release, state.handler, dropped)
    }
    withExtendedLifetime((handler, dropped)) {}
    release?.dispose()
  }

  @usableFromInline var isDisposed: Bool { state.withCriticalRegion { $0.machine.phase == .disposed } }
}
