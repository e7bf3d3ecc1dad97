import AsyncSchedulers
import Dispatch

/// ReactiveObjC's `RACTargetQueueScheduler`: a serial scheduler whose blocks run on `targetQueue`.
///
/// Blocks run one at a time, in order, even when `targetQueue` is concurrent.
public final class RACTargetQueueScheduler: RACScheduler, @unchecked Sendable {
  // Why @unchecked Sendable: no stored state of its own.

  /// Creates a serial scheduler targeting `targetQueue` (`-initWithName:targetQueue:`).
  public init(name: String?, targetQueue: DispatchQueue) {
    let name = name ?? "org.reactivecocoa.ReactiveObjC.RACTargetQueueScheduler"
    super.init(core: SerialScheduler(name: name, targetQueue: targetQueue), name: name)
  }
}
