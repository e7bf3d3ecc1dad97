import AsyncSchedulers
import AsyncSignals

/// ReactiveObjC's combining operators, in their Swift spellings, on the native operators.
extension RACSignal {
  /// Sends this signal's latest value each time `sampler` sends a value, again if nothing new arrived;
  /// `sampler`'s values before this signal's first are ignored (`-sample:`).
  ///
  /// Completes when either signal completes; an error of either is sent on. The value is sent on the
  /// sampler's thread. The native ``/AsyncSignals/Signal/sample(on:resendingLatest:)`` underneath;
  /// `sample(on:)` without it is Rx's rule (each value at most once). Memory: one value.
  public func sample<Sampler: Sendable>(_ sampler: RACSignal<Sampler>) -> RACSignal<Value> {
    RACSignal(native.sample(on: sampler.native, resendingLatest: true))
  }
}

extension RACSignal {
  /// Sends a ``RACTuple`` of both signals' latest values each time either sends one, once both have
  /// (`-combineLatestWith:`).
  ///
  /// Completes when both have completed (also when one completed without a value, as ReactiveObjC: the
  /// native `combineLatest` finishes at once then); an error of either is sent on and both are
  /// disposed. Tuples are sent one at a time, on the thread that formed them.
  public func combineLatest<Other: Sendable>(with other: RACSignal<Other>) -> RACSignal<RACTuple> {
    RACSignal<RACTuple>(
      native.combineLatestFinishingWithBoth(other.native).map { RACTuple(objectsFrom: [$0.0, $0.1]) })
  }

  /// Sends a ``RACTuple`` of every signal's latest value, in the array's order, each time one sends,
  /// once all have (`+combineLatest:`); completes when all have completed. No signals: completes at once.
  public class func combineLatest(_ signals: [RACSignal<Value>]) -> RACSignal<RACTuple> {
    joined(signals) { $0.combineLatestFinishingWithBoth($1) }
  }

  /// Sends a ``RACTuple`` of both signals' values of the same index (`-zipWith:`); completes once one
  /// has completed with no value waiting for a partner; an error of either is sent on.
  public func zip<Other: Sendable>(with other: RACSignal<Other>) -> RACSignal<RACTuple> {
    RACSignal<RACTuple>(native.zip(other.native).map { RACTuple(objectsFrom: [$0.0, $0.1]) })
  }

  /// Sends a ``RACTuple`` of every signal's values of the same index, in the array's order (`+zip:`).
  public class func zip(_ signals: [RACSignal<Value>]) -> RACSignal<RACTuple> {
    joined(signals) { $0.zip($1) }
  }

  /// Sends every signal's values as they come; completes when all have completed (`+merge:`).
  public class func merge(_ signals: [RACSignal<Value>]) -> RACSignal<Value> {
    RACSignal(.merge(signals.map(\.native)))
  }

  /// Sends this signal's values until `trigger` sends a value or completes, then completes
  /// (`-takeUntil:`).
  public func take<Trigger: Sendable>(until trigger: RACSignal<Trigger>) -> RACSignal<Value> {
    RACSignal(native.take(until: trigger.native))
  }

  /// Combines `signals` pairwise with `combine`, collecting each combination's values in order, as
  /// ReactiveObjC's `+join:block:` does; a tuple per combination.
  private class func joined(
    _ signals: [RACSignal<Value>],
    _ combine: (Signal<[Value?], any Error>, Signal<Value?, any Error>) -> Signal<([Value?], Value?), any Error>
  ) -> RACSignal<RACTuple> {
    guard let first = signals.first else { return RACSignal<RACTuple>(.empty()) }
    var joined = first.native.map { [$0] }
    for signal in signals.dropFirst() { joined = combine(joined, signal.native).map { $0.0 + [$0.1] } }
    return RACSignal<RACTuple>(joined.map { RACTuple(objectsFrom: $0.map { $0 as (any Sendable)? }) })
  }
}

extension RACSignal {
  /// Sends the values of the latest signal this signal of signals sent, disposing the previous one
  /// (`-switchToLatest`); completes when this signal and the current inner one have completed.
  public func switchToLatest<Inner: Sendable>() -> RACSignal<Inner> where Value == RACSignal<Inner> {
    RACSignal<Inner>(native.map { $0?.native ?? .empty() }.switchToLatest())
  }

  /// Merges the signals this signal of signals sends (`-flatten`); completes when it and every inner
  /// signal have completed. A `nil` inner signal sends nothing.
  public func flatten<Inner: Sendable>() -> RACSignal<Inner> where Value == RACSignal<Inner> {
    RACSignal<Inner>(native.flatMap { $0?.native ?? .empty() })
  }
}
