import AsyncSchedulers

extension Signal {
  /// Sends the events of the latest inner signal only: each new inner signal replaces the previous one,
  /// whose subscription is disposed and whose later events are dropped (Rx `switchLatest`, RAC
  /// `-switchToLatest`, Combine `switchToLatest`).
  ///
  /// Finishes when this signal and the current inner one have finished; a failure of either fails it.
  /// Inner signals are subscribed on the thread that sent them; events are sent in the order decided,
  /// one at a time. Memory: one inner subscription.
  @inlinable public func switchToLatest<Inner: Sendable>() -> Signal<Inner, Failure>
  where Element == Signal<Inner, Failure> {
    Signal<Inner, Failure> { observer in
      let box = OutboxStorage(SwitchStateMachine<Inner, Failure>())
      let inner = SerialDisposable()
      @Sendable func perform(_ send: Bool) { if send { box.state.sendPosted(to: observer.send) } }
      let outer = subscribe { event in
        switch event {
        case .next(let signal):
          guard let generation = box.state.withCriticalRegion({ $0.switchInner() }) else { return }
          // The previous inner subscription is disposed before the new one starts; events it sends
          // meanwhile fail the generation check. (The outer signal's events come one at a time, so no
          // other switch runs concurrently.)
          inner.inner = nil
          if let value = signal.justValue {
            // A `just` inner signal: its value and its end, as a subscription would send them (at once,
            // before anything else of this switch), with no subscription to make and dispose.
            perform(
              box.state.withCriticalRegion {
                let sendsValue = $0.inner(.next(value), generation: generation)
                let sendsEnd = $0.inner(.finished, generation: generation)
                return sendsValue || sendsEnd
              })
            return
          }
          inner.inner = signal.subscribe { event in
            perform(box.state.withCriticalRegion { $0.inner(event, generation: generation) })
          }
        case .finished: perform(box.state.withCriticalRegion { $0.outerFinish() })
        case .failed(let error): perform(box.state.withCriticalRegion { $0.outerFail(error) })
        }
      }
      return CompositeDisposable([outer, inner])
    }
  }
}
