import AsyncSchedulers
import AsyncSignals

/// ReactiveObjC's bind block: called with each value and a flag to set to stop binding; returns the
/// signal to merge in, or `nil` for none (`RACSignalBindBlock`; the flag is a `Bool` pointer, as
/// `ObjCBool` does not exist on Linux).
public typealias RACSignalBindBlock<Value: Sendable> =
  @Sendable (Value?, UnsafeMutablePointer<Bool>) -> RACSignal<Value>?

extension RACSignal {
  /// The primitive behind RAC's operators (`-bind:`): for each subscription, `block` makes a bind
  /// block; each value goes through it, and the signals it returns are merged. Setting the flag, or
  /// returning `nil`, disposes the source and completes it (the signals already returned still finish,
  /// and a signal returned with the flag set is still subscribed). Completes when the source and every
  /// returned signal have completed; an error from any of them is sent at once, and no value is bound
  /// after it.
  public func bind(_ block: @escaping @Sendable () -> RACSignalBindBlock<Value>) -> RACSignal<Value> {
    let upstream = native
    return RACSignal(
      Signal { observer in
        let bindBlock = block()
        let stopped = SerialDisposable()
        // `take(until:)` on a subject stops the outer signal when the flag is set.
        let stop = SignalSubject<Void, Never>()
        let merged = upstream.take(until: stop.signal).flatMap { value -> Signal<Value?, any Error> in
          var shouldStop = false
          let signal = bindBlock(value, &shouldStop)
          // A `nil` signal stops the binding too, as in ReactiveObjC.
          if shouldStop || signal == nil { stop.send(()) }
          return signal?.native ?? .empty()
        }
        stopped.inner = merged.subscribe(observer.send)
        return stopped
      })
  }

  /// Transforms each value (`-map:`).
  public func map<NewValue: Sendable>(_ transform: @escaping @Sendable (Value?) -> NewValue?) -> RACSignal<NewValue> {
    RACSignal<NewValue>(native.map(transform))
  }

  /// Keeps the values that pass `isIncluded` (`-filter:`).
  public func filter(_ isIncluded: @escaping @Sendable (Value?) -> Bool) -> RACSignal<Value> {
    RACSignal(native.filter(isIncluded))
  }

  /// Maps each value to a signal and merges them (`-flattenMap:`); a `nil` signal sends nothing.
  public func flattenMap<NewValue: Sendable>(
    _ transform: @escaping @Sendable (Value?) -> RACSignal<NewValue>?
  ) -> RACSignal<NewValue> {
    RACSignal<NewValue>(native.flatMap { transform($0)?.native ?? .empty() })
  }

  /// The first `count` values, then completed (`-take:`).
  public func take(_ count: UInt) -> RACSignal<Value> { RACSignal(native.take(Int(clamping: count))) }

  /// This signal's values, then `signal`'s once this one completes (`-concat:`).
  public func concat(_ signal: RACSignal<Value>) -> RACSignal<Value> { RACSignal(native.concat(signal.native)) }

  /// This signal's and `signal`'s values as they come (`-merge:`).
  public func merge(_ signal: RACSignal<Value>) -> RACSignal<Value> { RACSignal(native.merge(with: signal.native)) }
}
