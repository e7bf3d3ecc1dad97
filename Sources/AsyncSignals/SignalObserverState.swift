import AsyncSchedulers

/// What a ``SignalObserver`` keeps behind its lock, of no generic type.
///
/// A subscription is disposed through ``SignalObserverHandle`` (its handle does not know the element
/// type), so ``SignalObserver/dispose()`` runs unspecialized, where every generic type it touches costs
/// a runtime metadata lookup: a microsecond per dispose with a generic state. So the state names no
/// element type: the machine keeps the few events it queues (re-entrant sends) as `any Sendable`, and
/// the handler is kept as an object; ``SignalObserver`` casts both back, knowing they are its own.
@usableFromInline struct SignalObserverState {
  @usableFromInline typealias Machine = SignalObserverStateMachine<any Sendable, SendTurn, SendingThread>

  @usableFromInline var machine = Machine()
  /// The subscriber's handler (a `SignalHandler` of the observer's types), released once nothing more
  /// can be delivered.
  @usableFromInline var handler: AnyObject?

  @inlinable init(handler: AnyObject?) { self.handler = handler }
}
