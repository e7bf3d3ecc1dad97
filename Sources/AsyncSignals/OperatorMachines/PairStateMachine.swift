/// The state machine of a two-source operator (`combineLatest`, `zip`, `sample(on:)`, `withLatestFrom`):
/// each event of either source returns what the storage does after the lock.
@usableFromInline protocol PairStateMachine: OutboxState, SendableMetatype {
  associatedtype First: Sendable
  associatedtype Second: Sendable
  associatedtype Failure: Error
  associatedtype Action: PairAction

  /// Decides what an event of either source does; the events to send are posted to the outbox.
  mutating func handle(_ event: PairEvent<First, Second, Failure>) -> Action
}

/// What a two-source operator's event makes its storage do after the lock: send what was posted, and
/// release what the action holds (values dropped under the lock, whose deinitializers may re-enter).
@usableFromInline protocol PairAction: SendableMetatype {
  /// Whether the caller must send the posted events.
  var send: Bool { get }
}

/// A machine whose events only decide whether to send (it drops nothing under its lock).
extension Bool: PairAction {
  @inlinable var send: Bool { self }
}
