import AsyncSchedulers
import Synchronization

/// The disposable of one block scheduled through the bridge, and the job the core queue runs: one
/// allocation per `schedule`, like the core's own ``ScheduledAction``.
///
/// Disposing it before the block starts means the block never runs, and releases it at once.
final class RACScheduledBlock: RACDisposable, RunnableJob, @unchecked Sendable {
  // Why @unchecked Sendable: the block lives in a Mutex; the base class's state is locked.
  private let block: Mutex<(@Sendable () -> Void)?>
  /// The scheduler to set as current around the block, when the core that runs it does not.
  private let setsCurrent: RACScheduler?

  /// - Parameter setsCurrent: `nil` when the core's worker already sets itself as current (the core
  ///   schedulers that accept runnable jobs all do), so the block does not pay for it twice.
  init(_ block: @escaping @Sendable () -> Void, setsCurrent: RACScheduler?) {
    self.block = Mutex(block)
    self.setsCurrent = setsCurrent
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
    if let setsCurrent { setsCurrent.performAsCurrentScheduler(body) } else { body() }
  }
}
