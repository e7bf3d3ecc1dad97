import AsyncSchedulers

extension Signal {
  /// Runs side effects for each event before passing it on, and for the subscriber's disposal (RAC
  /// `-doNext:`, `-doError:`, `-doCompleted:`, `-doDisposed:`; Rx `do`; Combine `handleEvents`).
  ///
  /// `next`, `failed` and `finished` run on the thread sending the event, one event at a time, before
  /// the event is sent on. `disposed` runs once, on the disposing thread, when the subscriber disposes
  /// the subscription (not when the signal ends by itself). Memory: none.
  @inlinable public func handleEvents(
    next: (@Sendable (Element) -> Void)? = nil, failed: (@Sendable (Failure) -> Void)? = nil,
    finished: (@Sendable () -> Void)? = nil, disposed: (@Sendable () -> Void)? = nil
  ) -> Signal {
    Signal { observer in
      let subscription = subscribe { event in
        switch event {
        case .next(let value): next?(value)
        case .failed(let error): failed?(error)
        case .finished: finished?()
        }
        observer.send(event)
      }
      guard let disposed else { return subscription }
      return CompositeDisposable([subscription, AnyDisposable { if !observer.isEndedBySignal { disposed() } }])
    }
  }

  /// Sends each event of this signal as a value, then finishes after the terminal one: the signal
  /// itself never fails (Rx `materialize`, RAC `-materialize`). Events are sent on the thread that
  /// sent them. Memory: none.
  @inlinable public func materialize() -> Signal<SignalEvent<Element, Failure>, Never> {
    lift { observer in
      { event in
        observer.send(event)
        if event.isTerminal { observer.finish() }
      }
    }
  }
}

extension Signal where Failure == Never {
  /// Turns the values of a materialized signal back into events: a value `.next(x)` sends `x`, and
  /// `.finished` or `.failed(error)` ends the signal that way (Rx `dematerialize`, RAC
  /// `-dematerialize`). The end of the materialized signal itself finishes it. Memory: none.
  @inlinable public func dematerialize<Value: Sendable, ValueFailure: Error>() -> Signal<Value, ValueFailure>
  where Element == SignalEvent<Value, ValueFailure> {
    lift { observer in
      { event in
        switch event {
        case .next(let inner): observer.send(inner)
        case .finished: observer.finish()
        }
      }
    }
  }
}

extension SignalObserver {
  /// Whether the signal ended by itself (a terminal event), as opposed to being disposed.
  @usableFromInline var isEndedBySignal: Bool {
    state.withCriticalRegion { $0.machine.phase == .terminated }
  }
}
