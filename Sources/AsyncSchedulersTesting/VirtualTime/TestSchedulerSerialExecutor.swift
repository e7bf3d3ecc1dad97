import AsyncSchedulers

/// The serial-executor face of a ``TestScheduler``: actors bound to the scheduler enqueue their jobs
/// here, and those jobs run isolated to it. Tasks that prefer the scheduler enqueue through the
/// scheduler itself (its task-executor face), so their nonisolated code runs without hopping.
///
/// A separate object because one type has one `enqueue(_:)` for both roles, and the runtime must be
/// told which one a job runs in.
final class TestSchedulerSerialExecutor: SerialExecutor, @unchecked Sendable {
  // Why @unchecked Sendable: `scheduler` is assigned once, in `TestScheduler.init`, before the
  // executor is reachable from any other thread, and never changes afterwards.
  unowned(safe) var scheduler: TestScheduler!

  init() {}

  func enqueue(_ job: consuming ExecutorJob) { scheduler.enqueueIsolated(UnownedJob(job)) }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

  func isIsolatingCurrentContext() -> Bool? { CurrentSchedulerSlot.isCurrent(scheduler) }

  func checkIsolated() {
    checkArgument(CurrentSchedulerSlot.isCurrent(scheduler), "Expected to run on TestScheduler '\(scheduler.name)'")
  }
}
