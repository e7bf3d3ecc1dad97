import AsyncSchedulers
import AsyncSchedulersTesting
import Foundation

/// ReactiveObjC's `RACTestScheduler`, built on the virtual-time ``TestScheduler``.
///
/// Nothing runs until the test steps it. RAC's rules hold: `schedule` blocks run before any dated
/// block, first in first out; dated blocks run in date order (equal dates in the order scheduled);
/// ``step(_:)`` runs the next n blocks, skipping disposed ones; ``stepAll()`` runs everything; a
/// repeating block re-enqueues itself at its date + interval; stepping an empty scheduler does nothing.
/// Dates are ordering keys on the virtual timeline, measured from the moment the scheduler was
/// created. Unlike RAC's, releasing it does not run the remaining blocks.
public final class RACTestScheduler: RACScheduler, @unchecked Sendable {
  // Why @unchecked Sendable: `testScheduler` and `epoch` are `let`s of Sendable types.

  /// The virtual-time scheduler underneath: drive it directly to mix async code with RAC blocks.
  public let testScheduler: TestScheduler
  private let epoch: Date

  /// Creates a test scheduler (`-init`).
  public init() {
    let scheduler = TestScheduler(name: "org.reactivecocoa.ReactiveObjC.RACTestScheduler")
    testScheduler = scheduler
    epoch = Date()
    super.init(core: scheduler)
  }

  /// Runs the next block, if any (`-step`).
  public func step() { testScheduler.step() }

  /// Runs the next `ticks` blocks, fewer if fewer are pending (`-step:`).
  public func step(_ ticks: Int) { testScheduler.step(ticks) }

  /// Runs every pending block, including those they schedule (`-stepAll`).
  public func stepAll() { testScheduler.stepAll() }

  override func date(for instant: SchedulerInstant) -> Date {
    let (seconds, attoseconds) = instant.offset.components
    return epoch.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
  }

  override func instant(for date: Date) -> SchedulerInstant {
    let offset = date.timeIntervalSince(epoch)
    precondition(!offset.isNaN, "after: the date is not a valid date (NaN)")
    return SchedulerInstant.zero.advanced(by: .clampedSeconds(offset))
  }
}
