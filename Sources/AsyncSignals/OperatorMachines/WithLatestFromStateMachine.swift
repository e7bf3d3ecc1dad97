import AsyncSchedulers

/// The state of one `withLatestFrom(_:)` subscription; pure. Each value of the first signal is paired
/// with the other's latest value, if it has sent one; the other only supplies values.
@usableFromInline struct WithLatestFromStateMachine<A: Sendable, B: Sendable, Failure: Error>: PairStateMachine {
  @usableFromInline var latest: B?
  @usableFromInline var ended = false
  @usableFromInline var outbox = DrainQueue<SignalEvent<(A, B), Failure>>()

  @inlinable init() {}

  /// What an event makes the storage do after the lock.
  @usableFromInline struct Action: PairAction {
    /// Whether the caller must send the posted events.
    @usableFromInline var send = false
    /// A value of the other signal replaced, or a value that finds nothing to pair with, to release
    /// after the lock (its deinitializer may re-enter).
    @usableFromInline var dropped: (A?, B?) = (nil, nil)

    @inlinable init(send: Bool = false, dropped: (A?, B?) = (nil, nil)) {
      self.send = send
      self.dropped = dropped
    }
  }

  /// Routes an event of either signal (first: the driving one, second: the one supplying values).
  @inlinable mutating func handle(_ event: PairEvent<A, B, Failure>) -> Action {
    switch event {
    case .first(let value):
      guard !ended, let latest else { return Action(dropped: (value, nil)) }
      return Action(send: outbox.post(.next((value, latest))))
    case .second(let value):
      guard !ended else { return Action(dropped: (nil, value)) }
      let replaced = latest
      latest = value
      return Action(dropped: (nil, replaced))
    case .finished(first: true): return end(.finished)
    case .finished(first: false): return Action()
    case .failed(let error): return end(.failed(error))
    }
  }

  @inlinable mutating func end(_ event: SignalEvent<(A, B), Failure>) -> Action {
    guard !ended else { return Action() }
    ended = true
    let dropped = latest
    latest = nil
    return Action(send: outbox.post(event), dropped: (nil, dropped))
  }
}
