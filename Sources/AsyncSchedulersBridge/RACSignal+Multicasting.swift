import AsyncSchedulers
import AsyncSignals

/// ReactiveObjC's replaying operators, in their Swift spellings, on the native subjects and operators.
extension RACSignal {
  /// Subscribes to this signal now, once, and replays everything it sent to every subscriber, then the
  /// live events (`-replay`). Memory: every value, for as long as the returned signal lives.
  ///
  /// The subscription made now is not disposed by subscribers leaving, as in ReactiveObjC (it ends when
  /// this signal ends).
  public func replay() -> RACSignal<Value> { RACSignal(Self.eagerReplay(native, capacity: .max)) }

  /// Subscribes to this signal now, once, and sends its latest value to every subscriber, then the live
  /// events (`-replayLast`). Memory: one value.
  public func replayLast() -> RACSignal<Value> { RACSignal(Self.eagerReplay(native, capacity: 1)) }

  /// Subscribes to this signal once, at the first subscription, and replays everything it sent to every
  /// subscriber (`-replayLazily`; ``/AsyncSignals/Signal/replayLazily()`` underneath).
  public func replayLazily() -> RACSignal<Value> { RACSignal(native.replayLazily()) }

  private static func eagerReplay(
    _ upstream: Signal<Value?, any Error>, capacity: Int
  ) -> Signal<Value?, any Error> {
    let subject = ReplaySignalSubject<Value?, any Error>(capacity: capacity)
    _ = upstream.subscribe { event in
      switch event {
      case .next(let value): subject.send(value)
      case .finished: subject.finish()
      case .failed(let error): subject.fail(error)
      }
    }
    return subject.signal
  }
}
