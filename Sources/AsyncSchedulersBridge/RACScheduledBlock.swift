import AsyncSchedulers
import Synchronization

/// The disposable of one block scheduled through the bridge, and the job the core queue runs: one
/// small allocation and no lock per `schedule` (an atomic phase), like the core's own ``ScheduledAction``.
///
/// Disposing it before the block starts means the block never runs, and releases it at once.
final class RACScheduledBlock: RACDisposable, RunnableJob, @unchecked Sendable {
  // Why @unchecked Sendable: no state of its own; the base's atomic phase guards the block.

  init(_ block: @escaping @Sendable () -> Void) { super.init(job: block) }

  var isJobCancelled: Bool { isDisposed }

  func runJob() { takeJob()?() }
}
