import AsyncSchedulers

/// The state of one `combineLatest` subscription; pure. Sends are posted to the outbox in the order
/// decided (the two sources send from any threads).
@usableFromInline struct CombineLatestStateMachine<A: Sendable, B: Sendable, Failure: Error>: PairStateMachine {
  @usableFromInline var latestA: A?
  @usableFromInline var latestB: B?
  @usableFromInline var finishedA = false
  @usableFromInline var finishedB = false
  @usableFromInline var ended = false
  /// Whether a source finishing without a value ends the combination at once (Rx's rule), or only both
  /// finishing does (ReactiveObjC's `-combineLatestWith:`).
  @usableFromInline let finishesEarly: Bool
  /// Whether, when not finishing early, a value arriving after the other source finished without one
  /// finishes the combination (RxSwift's rule: no pair can ever be made then), or only both finishing
  /// does (ReactiveObjC's).
  @usableFromInline let finishesOnValueWithoutPartner: Bool
  @usableFromInline var outbox = DrainQueue<SignalEvent<(A, B), Failure>>()

  @inlinable init(finishesEarly: Bool = true, finishesOnValueWithoutPartner: Bool = false) {
    self.finishesEarly = finishesEarly
    self.finishesOnValueWithoutPartner = finishesOnValueWithoutPartner
  }

  /// Routes an event of either source to the event it is; returns whether the caller must send.
  @inlinable mutating func handle(_ event: PairEvent<A, B, Failure>) -> Bool {
    switch event {
    case .first(let value): receiveA(value)
    case .second(let value): receiveB(value)
    case .finished(let first): finish(first: first)
    case .failed(let error): fail(error)
    }
  }

  /// A value of the first source: posts the pair once the second has sent one. Returns whether the
  /// caller must send.
  @inlinable mutating func receiveA(_ value: A) -> Bool {
    guard !ended else { return false }
    latestA = value
    guard let latestB else { return finishesOnValueWithoutPartner && finishedB ? end(.finished) : false }
    return outbox.post(.next((value, latestB)))
  }

  /// A value of the second source; see ``receiveA(_:)``.
  @inlinable mutating func receiveB(_ value: B) -> Bool {
    guard !ended else { return false }
    latestB = value
    guard let latestA else { return finishesOnValueWithoutPartner && finishedA ? end(.finished) : false }
    return outbox.post(.next((latestA, value)))
  }

  /// A source finished: the combination finishes once both have, or at once if this one never sent a
  /// value (no pair can ever be made). Returns whether the caller must send.
  @inlinable mutating func finish(first: Bool) -> Bool {
    guard !ended else { return false }
    if first { finishedA = true } else { finishedB = true }
    let noPairEver = finishesEarly && (first ? latestA == nil : latestB == nil)
    guard (finishedA && finishedB) || noPairEver else { return false }
    return end(.finished)
  }

  /// A source failed: the combination fails. Returns whether the caller must send.
  @inlinable mutating func fail(_ error: Failure) -> Bool {
    guard !ended else { return false }
    return end(.failed(error))
  }

  @inlinable mutating func end(_ event: SignalEvent<(A, B), Failure>) -> Bool {
    ended = true
    latestA = nil
    latestB = nil
    return outbox.post(event)
  }
}

/// The state of one `zip` subscription; pure. Values wait in one queue per source until the other
/// source's value of the same index arrives.
@usableFromInline struct ZipStateMachine<A: Sendable, B: Sendable, Failure: Error>: PairStateMachine {
  @usableFromInline var queueA = FIFOBuffer<A>()
  @usableFromInline var queueB = FIFOBuffer<B>()
  @usableFromInline var finishedA = false
  @usableFromInline var finishedB = false
  @usableFromInline var ended = false
  @usableFromInline var outbox = DrainQueue<SignalEvent<(A, B), Failure>>()
  /// Whether the zip finishes only when both sources have finished (RxSwift's rule), or as soon as no
  /// more pairs can be made (ReactiveObjC's and Combine's).
  @usableFromInline let finishesWhenBothFinish: Bool

  @inlinable init(finishesWhenBothFinish: Bool = false) { self.finishesWhenBothFinish = finishesWhenBothFinish }

  /// What an event makes the storage do after the lock.
  @usableFromInline struct Action: PairAction {
    /// Whether the caller must send the posted events.
    @usableFromInline var send = false
    /// Values that will never be paired (the zip ended), to release after the lock.
    @usableFromInline var dropped: (FIFOBuffer<A>, FIFOBuffer<B>)?

    @inlinable init(send: Bool = false, dropped: (FIFOBuffer<A>, FIFOBuffer<B>)? = nil) {
      self.send = send
      self.dropped = dropped
    }
  }

  /// Routes an event of either source to the event it is.
  @inlinable mutating func handle(_ event: PairEvent<A, B, Failure>) -> Action {
    switch event {
    case .first(let value): receiveA(value)
    case .second(let value): receiveB(value)
    case .finished(let first): finish(first: first)
    case .failed(let error): fail(error)
    }
  }

  /// A value of the first source: pairs it with the second's oldest waiting value, or queues it.
  @inlinable mutating func receiveA(_ value: A) -> Action {
    guard !ended else { return Action() }
    guard let b = queueB.popFirst() else {
      queueA.append(value)
      return Action()
    }
    return post((value, b))
  }

  /// A value of the second source; see ``receiveA(_:)``.
  @inlinable mutating func receiveB(_ value: B) -> Action {
    guard !ended else { return Action() }
    guard let a = queueA.popFirst() else {
      queueB.append(value)
      return Action()
    }
    return post((a, value))
  }

  /// A source finished: the zip finishes once no more pairs can be made (that source's queue is
  /// empty).
  @inlinable mutating func finish(first: Bool) -> Action {
    guard !ended else { return Action() }
    if first { finishedA = true } else { finishedB = true }
    return endIfExhausted(Action())
  }

  /// A source failed: the zip fails, dropping what waits.
  @inlinable mutating func fail(_ error: Failure) -> Action {
    guard !ended else { return Action() }
    return end(.failed(error), Action())
  }

  @inlinable mutating func post(_ pair: (A, B)) -> Action {
    endIfExhausted(Action(send: outbox.post(.next(pair))))
  }

  @inlinable mutating func endIfExhausted(_ action: Action) -> Action {
    if finishesWhenBothFinish {
      guard finishedA && finishedB else { return action }
    } else {
      guard (finishedA && queueA.isEmpty) || (finishedB && queueB.isEmpty) else { return action }
    }
    return end(.finished, action)
  }

  @inlinable mutating func end(_ event: SignalEvent<(A, B), Failure>, _ action: Action) -> Action {
    ended = true
    var dropped = (FIFOBuffer<A>(), FIFOBuffer<B>())
    swap(&dropped.0, &queueA)
    swap(&dropped.1, &queueB)
    let send = outbox.post(event)
    return Action(send: action.send || send, dropped: dropped)
  }
}
