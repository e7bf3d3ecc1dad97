/// How values wait between a signal and the loop iterating it, while the loop body runs.
///
/// The default, ``unbounded``, never loses a value: a signal has no backpressure (as in ReactiveCocoa
/// and RxSwift), so a slower consumer makes the buffer grow instead of dropping values silently.
/// Choose a bounded policy when losing values is the right trade (UI state, sensor readings).
public enum SignalBuffering: Sendable, Equatable {
  /// Keep every value until the loop takes it.
  case unbounded
  /// Keep the newest `n` values; a new value drops the oldest waiting one.
  case bufferingNewest(Int)
  /// Keep the oldest `n` values; new values are dropped while `n` wait.
  case bufferingOldest(Int)
}
