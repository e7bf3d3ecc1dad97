import AsyncSchedulers
import Synchronization

extension Signal {
  /// One upstream subscription shared by all current subscribers, made by the first and disposed when
  /// the last leaves; each subscriber first gets up to `replay` of the latest values sent on the current
  /// connection (Rx `share(replay:scope: .whileConnected)`, Combine `share()`; ReactiveObjC's
  /// `-replay`, `-replayLast` and `-replayLazily` keep theirs: see ``replayLazily()``).
  ///
  /// The upstream is subscribed on the thread of the first subscriber, after it is attached (a
  /// synchronous upstream's values reach it). Events reach each subscriber in order, on the thread the
  /// upstream sent them on (a subscriber's replay on its own thread, before its live events). When the
  /// upstream ends, its subscribers get the end and the next subscriber connects anew (so a cold signal
  /// runs again). Disposal of the last subscription disposes the upstream subscription exactly once.
  /// Memory: up to `replay` values per connection.
  ///
  /// - Precondition: `replay >= 0`; otherwise the process stops, naming the operator and the value.
  @inlinable public func share(replay: Int = 0) -> Signal {
    checkArgument(replay >= 0, "Signal.share(replay:): replay must not be negative (got \(replay))")
    let shared = SharedConnection(upstream: self, replay: replay)
    return Signal { observer in shared.subscribe(observer) }
  }
}

/// The connections of one `share(replay:)` signal: the state machine under a lock, and the upstream.
@usableFromInline final class SharedConnection<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline typealias Machine = ShareStateMachine<
    ReplaySignalSubject<Element, Failure>, SignalSubscription<Element, Failure>
  >

  @usableFromInline let upstream: Signal<Element, Failure>
  @usableFromInline let replay: Int
  @usableFromInline let machine = Mutex(Machine())

  @inlinable init(upstream: Signal<Element, Failure>, replay: Int) {
    self.upstream = upstream
    self.replay = replay
  }

  /// Attaches `observer` to the current connection (connecting if there is none); returns what detaches
  /// it.
  @inlinable func subscribe(_ observer: SignalObserver<Element, Failure>) -> any Disposable {
    let replay = self.replay
    let action = machine.withCriticalRegion { $0.subscribe { ReplaySignalSubject(capacity: replay) } }
    let subject: ReplaySignalSubject<Element, Failure>
    let generation: UInt64
    switch action {
    case .join(let joined, let number): (subject, generation) = (joined, number)
    case .connect(let made, let number): (subject, generation) = (made, number)
    }
    let attachment = subject.signal.subscribe(observer.send)
    let detach = AnyDisposable { [self] in
      attachment.dispose()
      perform(machine.withCriticalRegion { $0.unsubscribe(generation) })
    }
    if case .connect = action { connect(subject, generation) }
    return detach
  }

  @inlinable func connect(_ subject: ReplaySignalSubject<Element, Failure>, _ generation: UInt64) {
    let handle = upstream.subscribe { [self] event in
      switch event {
      case .next(let value): subject.send(value)
      case .finished, .failed:
        // Ended first, so that a subscriber arriving now connects anew instead of joining the end.
        perform(machine.withCriticalRegion { $0.upstreamEnded(generation) })
        if case .failed(let error) = event { subject.fail(error) } else { subject.finish() }
      }
    }
    machine.withCriticalRegion { $0.connected(generation, handle: handle) }?.dispose()
  }

  @inlinable func perform(_ action: Machine.EndAction) {
    if case .disconnect(let handle) = action { handle?.dispose() }
  }
}
