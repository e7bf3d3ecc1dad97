import AsyncSchedulers

extension Signal {
  /// Sends this signal's newest value each time `trigger` sends one, if a value arrived since the last
  /// sample (ReactiveObjC's `-sample:` resends the latest value on every tick: see
  /// ``sample(on:resendingLatest:)``; RxSwift 6's `sample`, whose trigger's end is one more tick and
  /// which ends only at a tick, is the Rx bridge's).
  ///
  /// Each value is sent at most once, on the thread of the tick that sends it (or of a thread already
  /// sending for this subscription); values replaced before a tick are dropped. When this signal
  /// finishes, the sample finishes at once if nothing waits, else at the next tick, after sending the
  /// last value. When `trigger` finishes, the waiting value is sent and the sample finishes (no tick can
  /// come). A failure of either fails it and disposes both. Memory: one value.
  @inlinable public func sample<Trigger: Sendable>(on trigger: Signal<Trigger, Failure>) -> Signal {
    sample(on: trigger, resendingLatest: false)
  }

  /// Sends this signal's latest value each time `trigger` sends one, again if nothing new arrived;
  /// ticks before this signal's first value are ignored (ReactiveObjC's `-sample:` rule).
  ///
  /// Finishes when either signal finishes; a failure of either fails it and disposes both. The value is
  /// sent on the tick's thread (or a thread already sending for this subscription). Memory: one value.
  @inlinable public func sample<Trigger: Sendable>(on trigger: Signal<Trigger, Failure>, resendingLatest: Bool)
    -> Signal
  {
    combining(trigger) {
      SampleStateMachine<Element, Trigger, Failure>(rule: resendingLatest ? .resendingLatest : .eachValueOnce)
    }
  }

  /// RxSwift 6's `sample(_:defaultValue:)`, for the Rx bridge: each value at most once at a tick, else
  /// `defaultValue`; the trigger's end is one more tick; ends at the first tick after this signal
  /// finished (never, when the trigger finished first); a failure of either fails it.
  @inlinable package func sample<Trigger: Sendable>(
    rxSwiftStyleOn trigger: Signal<Trigger, Failure>, defaultValue: Element?
  ) -> Signal {
    combining(trigger) { SampleStateMachine<Element, Trigger, Failure>(rule: .rxSwift(defaultValue: defaultValue)) }
  }

  /// Sends each value of this signal paired with `other`'s latest value; a value that comes before
  /// `other` has sent one is dropped (Rx `withLatestFrom`, Combine's `withLatestFrom` in
  /// CombineExt).
  ///
  /// `other` is subscribed first, so a value it sends while being subscribed is in place for this
  /// signal's first value. The pair is sent on the thread that sent this signal's value. Finishes when
  /// this signal finishes (`other` finishing changes nothing: its last value stays in use); a failure
  /// of either fails it and disposes both. Memory: `other`'s latest value.
  @inlinable public func withLatestFrom<Other: Sendable>(_ other: Signal<Other, Failure>) -> Signal<
    (Element, Other), Failure
  > {
    combining(other, otherFirst: true) { WithLatestFromStateMachine<Element, Other, Failure>() }
  }
}
