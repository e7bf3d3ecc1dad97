import AsyncSchedulers

/// The state of one `switchToLatest` subscription; pure. Each inner signal gets a generation; events of
/// an inner signal that was switched away from are dropped, and sends are posted to the outbox in the
/// order decided.
@usableFromInline struct SwitchStateMachine<Element: Sendable, Failure: Error>: OutboxState {
  /// The generation of the current inner signal (0: none yet).
  @usableFromInline var current: UInt64 = 0
  @usableFromInline var innerActive = false
  @usableFromInline var outerFinished = false
  @usableFromInline var ended = false
  @usableFromInline var outbox = DrainQueue<SignalEvent<Element, Failure>>()

  @inlinable init() {}

  /// A new inner signal arrived: it becomes the current one (its generation is returned, `nil` once
  /// ended); the previous one's subscription is disposed by the caller.
  @inlinable mutating func switchInner() -> UInt64? {
    guard !ended else { return nil }
    current &+= 1
    innerActive = true
    return current
  }

  /// An event of the inner signal of `generation`: posted if it is still the current one. Returns
  /// whether the caller must send.
  @inlinable mutating func inner(_ event: SignalEvent<Element, Failure>, generation: UInt64) -> Bool {
    guard !ended, generation == current else { return false }
    switch event {
    case .next:
      return outbox.post(event)
    case .failed:
      ended = true
      return outbox.post(event)
    case .finished:
      innerActive = false
      guard outerFinished else { return false }
      ended = true
      return outbox.post(.finished)
    }
  }

  /// The outer signal finished: the switch finishes once the current inner one has. Returns whether the
  /// caller must send.
  @inlinable mutating func outerFinish() -> Bool {
    guard !ended else { return false }
    outerFinished = true
    guard !innerActive else { return false }
    ended = true
    return outbox.post(.finished)
  }

  /// The outer signal failed: the switch fails. Returns whether the caller must send.
  @inlinable mutating func outerFail(_ error: Failure) -> Bool {
    guard !ended else { return false }
    ended = true
    return outbox.post(.failed(error))
  }
}
