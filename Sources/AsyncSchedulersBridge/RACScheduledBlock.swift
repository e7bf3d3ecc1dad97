import AsyncSchedulers
import Synchronization

/// The disposable of one block scheduled through the bridge, and the job the core queue runs: one
/// allocation per `schedule`, like the core's own ``ScheduledAction``.
///
/// Disposing it before the block starts means the block never runs, and releases it at once.
final class RACScheduledBlock: RACDisposable, RunnableJob, @unchecked Sendable {
  // Why @unchecked Sendable: the block lives in a Mutex; the base class's state is locked.
  private let block: Mutex<(@Sendable () -> Void)?>
  private let scheduler: RACScheduler

  init(_ block: @escaping @Sendable () -> Void, on scheduler: RACScheduler) {
    self.block = Mutex(block)
    self.scheduler = scheduler
    super.init()
  }

  override func dispose() {
    super.dispose()
    let released = block.withCriticalRegion { stored -> (@Sendable () -> Void)? in
      defer { stored = nil }
      return stored
    }
    _ = released  // freed here, outside the lock
  }

  var isJobCancelled: Bool { isDisposed }

  func runJob() {
    let body = block.withCriticalRegion { stored -> (@Sendable () -> Void)? in
      defer { stored = nil }
      return stored
    }
    guard let body, !isDisposed else { return }
    scheduler.performAsCurrentScheduler(body)
  }
}
