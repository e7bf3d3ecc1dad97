import AsyncSchedulers
import Synchronization

/// The disposable of one block scheduled through the bridge, and the job the core queue runs: one
/// small allocation and one lock per `schedule`, like the core's own ``ScheduledAction``.
///
/// Disposing it before the block starts means the block never runs, and releases it at once.
final class RACScheduledBlock: RACDisposable, RunnableJob, @unchecked Sendable {
  // Why @unchecked Sendable: `setsCurrent` is a `let` of a Sendable type; the rest is the base's Mutex.

  /// The scheduler to set as current around the block, when the core that runs it does not.
  private let setsCurrent: RACScheduler?

  /// - Parameter setsCurrent: `nil` when the core's worker already sets itself as current (the core
  ///   schedulers that accept runnable jobs all do), so the block does not pay for it twice.
  init(_ block: @escaping @Sendable () -> Void, setsCurrent: RACScheduler?) {
    self.setsCurrent = setsCurrent
    super.init(job: block)
  }

  var isJobCancelled: Bool { isDisposed }

  func runJob() {
    let body = baseState.withCriticalRegion { state -> (@Sendable () -> Void)? in
      guard !state.disposed else { return nil }
      defer { state.job = nil }
      return state.job
    }
    guard let body else { return }
    if let setsCurrent { setsCurrent.performAsCurrentScheduler(body) } else { body() }
  }
}
