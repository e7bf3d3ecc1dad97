import AsyncSchedulers

/// The state of one `sample(on:)` subscription; pure. The source's newest value waits for the trigger,
/// sent by the ``Rule`` of the operator: at most once (the native rule), the latest at every tick
/// (ReactiveObjC's `-sample:`), or RxSwift 6's. Sends are posted to the outbox in the order decided (the
/// source and the trigger send from any threads).
@usableFromInline struct SampleStateMachine<Element: Sendable, Trigger: Sendable, Failure: Error>: PairStateMachine {
  /// When a value is sent and when the sample ends.
  @usableFromInline enum Rule: Sendable {
    /// Each value at most once. The source's end ends the sample at once when nothing waits, else at
    /// the next tick, after the value; the trigger's end sends the waiting value and ends the sample.
    case eachValueOnce
    /// The latest value at every tick, sent or not (ticks before the first value send nothing); either
    /// signal's end ends the sample (ReactiveObjC's `-sample:`).
    case resendingLatest
    /// RxSwift 6's `sample(_:defaultValue:)`: each value at most once, else `defaultValue` if any; the
    /// trigger's end is one more tick; the sample ends at the first tick after the source ended (never,
    /// when the trigger ended first).
    case rxSwift(defaultValue: Element?)
  }

  /// The newest source value not sent yet (resending the latest: the latest value, sent or not).
  @usableFromInline var pending: Element?
  @usableFromInline var sourceFinished = false
  @usableFromInline var ended = false
  @usableFromInline let rule: Rule
  @usableFromInline var outbox = DrainQueue<SignalEvent<Element, Failure>>()

  @inlinable init(rule: Rule) { self.rule = rule }

  /// Whether the latest value is sent at every tick (ReactiveObjC's rule).
  @inlinable var resendsLatest: Bool {
    if case .resendingLatest = rule { return true }
    return false
  }

  /// What an event makes the storage do after the lock.
  @usableFromInline struct Action: PairAction {
    /// Whether the caller must send the posted events.
    @usableFromInline var send = false
    /// A value replaced or never to be sent, to release after the lock (its deinitializer may re-enter).
    @usableFromInline var dropped: Element?

    @inlinable init(send: Bool = false, dropped: Element? = nil) {
      self.send = send
      self.dropped = dropped
    }
  }

  /// Routes an event of either source (first: the sampled signal, second: the trigger).
  @inlinable mutating func handle(_ event: PairEvent<Element, Trigger, Failure>) -> Action {
    switch event {
    case .first(let value): receive(value)
    case .second: tick(final: false)
    case .finished(first: true): finishSource()
    case .finished(first: false): tick(final: true)
    case .failed(let error): end(.failed(error))
    }
  }

  /// A source value: it replaces the pending one (which is never sent).
  @inlinable mutating func receive(_ value: Element) -> Action {
    guard !ended else { return Action(dropped: value) }
    let replaced = pending
    pending = value
    return Action(dropped: replaced)
  }

  /// A trigger value (or, `final`, the trigger's end): sends the pending value, if any (at the end, not
  /// when resending the latest). The sample finishes after it when the source has finished, or when the
  /// trigger has (no more ticks can come), except under RxSwift's rule (only once the source has).
  @inlinable mutating func tick(final: Bool) -> Action {
    guard !ended else { return Action() }
    var send = false
    if case .rxSwift(let defaultValue) = rule {
      if let value = pending.take() ?? defaultValue { send = outbox.post(.next(value)) }
      guard sourceFinished else { return Action(send: send) }
      let action = end(.finished)
      return Action(send: send || action.send)
    }
    if let value = pending, !(final && resendsLatest) {
      if !resendsLatest { pending = nil }
      send = outbox.post(.next(value))
    }
    guard final || sourceFinished else { return Action(send: send) }
    let action = end(.finished)
    return Action(send: send || action.send)
  }

  /// The source finished: the sample finishes now if nothing waits (always under ReactiveObjC's rule),
  /// else at the next tick, which sends the last value first (always at the next tick under RxSwift's).
  @inlinable mutating func finishSource() -> Action {
    guard !ended else { return Action() }
    sourceFinished = true
    if case .rxSwift = rule { return Action() }
    guard pending == nil || resendsLatest else { return Action() }
    return end(.finished)
  }

  @inlinable mutating func end(_ event: SignalEvent<Element, Failure>) -> Action {
    guard !ended else { return Action() }
    ended = true
    let dropped = pending
    pending = nil
    return Action(send: outbox.post(event), dropped: dropped)
  }
}
