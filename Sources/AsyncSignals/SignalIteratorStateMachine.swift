import AsyncSchedulers

/// The buffer between a signal's subscription and the loop iterating it; pure, returns what to do.
///
/// Values are buffered per the policy while no `next()` waits; a waiting `next()` gets the next value
/// directly. After the terminal event, buffered values are still returned, then the failure (once),
/// then `nil` for ever. Cancellation ends the iteration at once (`nil`) and hands the subscription
/// out to be disposed, exactly once.
@usableFromInline package struct SignalIteratorStateMachine<Element, Failure: Error, Continuation, Subscription> {
  @usableFromInline package enum Terminal {
    case finished
    case failed(Failure)
  }

  @usableFromInline let policy: SignalBuffering
  @usableFromInline var buffer = FIFOBuffer<Element>()
  @usableFromInline var terminal: Terminal?
  @usableFromInline var waiting: Continuation?
  /// Whether the subscription was started (it starts on the first `next()`).
  @usableFromInline package private(set) var started = false
  @usableFromInline var subscription: Subscription?
  @usableFromInline var subscriptionReleased = false
  /// Whether the iteration ended (cancelled, or the terminal event returned).
  @usableFromInline package private(set) var done = false

  /// A machine buffering per `policy`.
  /// - Precondition: a bounded policy's size is at least 1.
  @inlinable package init(policy: SignalBuffering) {
    switch policy {
    case .unbounded: break
    case .bufferingNewest(let size), .bufferingOldest(let size):
      checkArgument(size >= 1, "Signal.values(buffering:): the buffer size must be at least 1 (got \(size))")
    }
    self.policy = policy
  }

  /// What `next()` does.
  @usableFromInline package enum NextAction {
    /// Start the subscription (outside the lock), then call ``next(_:)`` again.
    case subscribe
    /// Resume at once with this result.
    case resume(Result<Element?, Failure>)
    /// The continuation was stored; an event or cancellation resumes it.
    case suspend
  }

  /// A `next()` call: hands out a buffered value, the terminal outcome, or stores `continuation`.
  @inlinable package mutating func next(_ continuation: Continuation) -> NextAction {
    if !started && !done {
      started = true
      return .subscribe
    }
    if let value = buffer.popFirst() { return .resume(.success(value)) }
    if done { return .resume(.success(nil)) }
    if let terminal {
      done = true
      if case .failed(let error) = terminal { return .resume(.failure(error)) }
      return .resume(.success(nil))
    }
    checkArgument(waiting == nil, "Signal iterator: next() called while another next() waits")
    waiting = continuation
    return .suspend
  }

  /// A `next()` fast path: a buffered value (or the terminal outcome once the buffer is empty), when
  /// there is one, without a continuation; `nil` when the call must go the slow way (subscribe first,
  /// or wait).
  @inlinable package mutating func takeWithoutWaiting() -> Result<Element?, Failure>? {
    guard started || done else { return nil }
    if let value = buffer.popFirst() { return .success(value) }
    if done { return .success(nil) }
    if let terminal {
      done = true
      if case .failed(let error) = terminal { return .failure(error) }
      return .success(nil)
    }
    return nil
  }

  /// The subscription started: keep it to dispose on cancellation, or return it to dispose now when
  /// the iteration was cancelled meanwhile.
  @inlinable package mutating func subscribed(_ subscription: Subscription) -> Subscription? {
    if done && !subscriptionReleased {
      subscriptionReleased = true
      return subscription
    }
    self.subscription = subscription
    return nil
  }

  /// What to do with an arrived value.
  @usableFromInline package enum ReceiveAction {
    /// Resume the waiting `next()` with the value.
    case resume(Continuation)
    /// The value was buffered, evicting the oldest one (`.bufferingNewest`); release that one after
    /// the lock (its deinitializer may send to this very iteration).
    case evicted(Element)
    /// The value was buffered, or dropped (the caller releases it).
    case none
  }

  /// A value arrived: resume the waiting `next()` with it, or buffer it per the policy.
  @inlinable package mutating func receive(_ value: Element) -> ReceiveAction {
    guard !done, terminal == nil else { return .none }
    if let continuation = waiting {
      waiting = nil
      return .resume(continuation)
    }
    switch policy {
    case .unbounded:
      buffer.append(value)
    case .bufferingNewest(let size):
      let evicted = buffer.count == size ? buffer.popFirst() : nil
      buffer.append(value)
      if let evicted { return .evicted(evicted) }
    case .bufferingOldest(let size):
      if buffer.count < size { buffer.append(value) }
    }
    return .none
  }

  /// The terminal event arrived: the waiting continuation to resume with the outcome, if one waits
  /// (then the buffer is empty).
  @inlinable package mutating func receive(terminal event: Terminal) -> (Continuation, Result<Element?, Failure>)? {
    guard !done, terminal == nil else { return nil }
    terminal = event
    // The subscription ended by itself: nothing to dispose on cancellation.
    subscription = nil
    subscriptionReleased = true
    guard let continuation = waiting else { return nil }
    waiting = nil
    done = true
    if case .failed(let error) = event { return (continuation, .failure(error)) }
    return (continuation, .success(nil))
  }

  /// The iteration is cancelled (the task, or the iterator released): the waiting continuation to
  /// resume with `nil`, and the subscription to dispose, each at most once.
  /// The buffered values are handed back too, to be released after the lock (their deinitializers
  /// may send to this very iteration).
  @inlinable package mutating func cancel() -> (Continuation?, Subscription?, dropped: FIFOBuffer<Element>) {
    done = true
    var dropped = FIFOBuffer<Element>()
    swap(&dropped, &buffer)
    let continuation = waiting
    waiting = nil
    // Not subscribed yet (or still subscribing): ``subscribed(_:)`` hands the subscription out then.
    guard !subscriptionReleased, let subscription else { return (continuation, nil, dropped) }
    subscriptionReleased = true
    self.subscription = nil
    return (continuation, subscription, dropped)
  }
}
