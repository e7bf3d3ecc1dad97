import AsyncSchedulers
import AsyncSchedulersBridge
import AsyncSchedulersTesting

/// ReactiveObjC's `RACTestScheduler`, built on the virtual-time ``/AsyncSchedulersTesting/TestScheduler``.
///
/// Nothing runs until the test steps it. RAC's rules hold: `schedule` blocks run before any dated
/// block, first in first out; dated blocks run in date order (equal dates in the order scheduled);
/// ``step(_:)`` runs the next n blocks, skipping disposed ones; ``stepAll()`` runs everything; a
/// repeating block re-enqueues itself at its date + interval; stepping an empty scheduler does nothing.
/// Dates are ordering keys on the virtual timeline, measured from the moment the scheduler was
/// created; `afterDelay(_:schedule:)` counts from the virtual now (the stepped block's time), so nested
/// delays land exactly (ReactiveObjC's counted from the real date, so their order depended on how fast
/// the test ran). Unlike RAC's, releasing it does not run the remaining blocks. As in RAC, a block scheduled
/// from any thread (a background `RACScheduler`'s block, then stepped from that block, as RACSchedulerSpec
/// does) simply waits for a step; it is not reported as an escape, which a core `TestScheduler` does for
/// callbacks from foreign threads (there they usually mean a task escaped the test's scheduler).
///
/// It lives in `AsyncSchedulersBridgeTesting`, apart from the bridge, so that an app importing
/// `AsyncSchedulersBridge` never links a test framework; RAC test code adds this one import.
public final class RACTestScheduler: RACScheduler, @unchecked Sendable {
  // Why @unchecked Sendable: `testScheduler` is a `let` of a Sendable type (RACScheduler's own
  // invariant covers the rest).

  /// The virtual-time scheduler underneath: drive it directly to mix async code with RAC blocks.
  public let testScheduler: TestScheduler

  /// Creates a test scheduler (`-init`).
  public init() {
    // As in ReactiveObjC, a block scheduled from any thread (a background RACScheduler's block, say)
    // simply waits for `step`: it is not reported as an escape.
    let scheduler = TestScheduler(
      name: "org.reactivecocoa.ReactiveObjC.RACTestScheduler", now: .zero, maximumJobsPerInstant: 100_000,
      stallTimeout: .seconds(10), acceptsCallbacksFromAnyThread: true)
    testScheduler = scheduler
    super.init(core: scheduler)
  }

  /// Runs the next block, if any (`-step`).
  public func step() { testScheduler.step() }

  /// Runs the next `ticks` blocks, fewer if fewer are pending (`-step:`).
  public func step(_ ticks: Int) { testScheduler.step(ticks) }

  /// Runs every pending block, including those they schedule (`-stepAll`).
  public func stepAll() { testScheduler.stepAll() }
}
