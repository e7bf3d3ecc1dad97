import AsyncSchedulers

/// A callback for the main queue in a capturing scope's FIFO: a block the stood-in main scheduler
/// (RxSwift's `MainScheduler`, RAC's main-thread scheduler) or `DispatchQueue.main.async` hands over from
/// the scope's code. It runs with the main queue held, and it is in the main queue's one lane with the
/// scope's main-actor jobs: on a device they are one FIFO, so exploring orderings never reorders them
/// among themselves (see ``OrderExplorer``).
final class MainQueueWork: RunnableJob {
  private let action: ScheduledAction

  /// `action` (already wrapped to hold the main queue when it runs).
  init(_ action: ScheduledAction) { self.action = action }

  /// Runs the callback unless it was disposed. Called on the scheduler, with no lock held.
  func runJob() { action.run() }

  /// Whether the callback was disposed (a stepping driver skips it).
  var isJobCancelled: Bool { action.isDisposed }

  /// A main-queue block, in failure messages.
  var role: RunnableJobRole { .mainQueueBlock }
}
