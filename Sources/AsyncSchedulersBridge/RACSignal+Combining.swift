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
