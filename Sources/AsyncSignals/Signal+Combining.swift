import AsyncSchedulers
import Synchronization

extension Signal {
  /// Maps each value to a signal and merges their values as they come (`-flattenMap:`, RAC's `bind`,
  /// Rx `flatMap`).
  ///
  /// Finishes when this signal and every inner signal have finished; fails as soon as any of them fails
  /// (disposing the others; no later value is transformed). Inner signals are subscribed as their
  /// values arrive, all at once; `transform` runs on the thread delivering the value, one at a time.
  /// Memory: one subscription per inner signal still running.
  @inlinable public func flatMap<NewElement: Sendable>(
    _ transform: @escaping @Sendable (Element) -> Signal<NewElement, Failure>
  ) -> Signal<NewElement, Failure> {
    Signal<NewElement, Failure> { observer in
      let merge = MergeState()
      let subscription = subscribe { event in
        switch event {
        case .next(let value):
          // Ended (an inner signal failed) while this signal still sends, e.g. synchronously while
          // it is being subscribed: no more values are transformed.
          if observer.isTerminated { return }
          let innerSignal = transform(value)
          if let innerValue = innerSignal.justValue {
            // A `just` inner signal: its value, as a subscription would send it; its end cannot end the
            // merge (this signal, sending this value, has not finished).
            observer.send(innerValue)
            return
          }
          merge.started()
          let inner = CompositeDisposable()
          let handle = merge.disposables.add(inner)
          inner.add(
            innerSignal.subscribe { innerEvent in
              switch innerEvent {
              case .next(let innerValue): observer.send(innerValue)
              case .failed(let error): observer.fail(error)
              case .finished:
                handle.dispose()
                if merge.finishedInner() { observer.finish() }
              }
            })
        case .failed(let error): observer.fail(error)
        case .finished: if merge.finishedOuter() { observer.finish() }
        }
      }
      merge.disposables.add(subscription)
      return merge.disposables
    }
  }

  /// Merges the values of `signals` as they come (`+[RACSignal merge:]`, Rx `merge`); finishes when all
  /// have finished, fails when any fails.
  /// Memory: one subscription per signal still running.
  @inlinable public static func merge(_ signals: [Signal]) -> Signal {
    Signal<Signal, Failure> { observer in
      for signal in signals { observer.send(signal) }
      observer.finish()
      return nil
    }.flatMap { $0 }
  }

  /// Merges this signal's values with `other`'s (`-merge:`).
  /// Memory: one subscription per signal still running.
  @inlinable public func merge(with other: Signal) -> Signal { .merge([self, other]) }

  /// Sends this signal's values, then, once it finishes, subscribes to `other` and sends its values
  /// (`-concat:`). A failure of this signal ends it without subscribing to `other`.
  /// Memory: none (one subscription at a time).
  @inlinable public func concat(_ other: Signal) -> Signal {
    Signal { observer in
      // Two slots: the first signal may finish while it is being subscribed (`just(1)`), and then the
      // second subscription is stored before the first one's handle is; one shared slot would let the
      // later assignment of the first handle dispose the second subscription.
      let first = SerialDisposable()
      let second = SerialDisposable()
      first.inner = subscribe { event in
        switch event {
        case .next(let value): observer.send(value)
        case .failed(let error): observer.fail(error)
        case .finished: second.inner = other.subscribe(observer.send)
        }
      }
      return CompositeDisposable([first, second])
    }
  }

  /// Sends this signal's values until `trigger` sends a value or finishes, then finishes
  /// (`-takeUntil:`; ReactiveSwift's `take(until:)`). A failure of the trigger is ignored; a trigger
  /// that fires before the first value gives an empty signal.
  /// Memory: the trigger's subscription.
  @inlinable public func take<Trigger: Sendable, TriggerFailure: Error>(
    until trigger: Signal<Trigger, TriggerFailure>
  ) -> Signal {
    Signal { observer in
      let disposables = CompositeDisposable()
      disposables.add(
        trigger.subscribe { event in
          if case .failed = event { return }
          observer.finish()
        })
      if !observer.isTerminated { disposables.add(subscribe(observer.send)) }
      return disposables
    }
  }
}

/// The bookkeeping of a merge: how many inner signals are active and whether the outer one finished.
@usableFromInline final class MergeState: Sendable {
  @usableFromInline let disposables = CompositeDisposable()
  @usableFromInline let counts = Mutex<(active: Int, outerFinished: Bool)>((0, false))

  @inlinable init() {}

  @inlinable func started() { counts.withCriticalRegion { $0.active += 1 } }

  /// An inner signal finished; returns whether the merge is complete.
  @inlinable func finishedInner() -> Bool {
    counts.withCriticalRegion { counts in
      counts.active -= 1
      return counts.active == 0 && counts.outerFinished
    }
  }

  /// The outer signal finished; returns whether the merge is complete.
  @inlinable func finishedOuter() -> Bool {
    counts.withCriticalRegion { counts in
      counts.outerFinished = true
      return counts.active == 0
    }
  }
}
