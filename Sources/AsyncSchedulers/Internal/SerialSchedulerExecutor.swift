/// The serial executor of a serial scheduler: what actors bound to it return from `unownedExecutor`.
///
/// It is a separate object from the scheduler (which is the *task* executor) so that actor jobs run
/// `on:` it and task jobs run `isolatedTo:` it, and the runtime never sees a task-executor mismatch on
/// an actor call (one object in both roles costs an extra enqueue per call). It holds the scheduler's
/// engine strongly; an actor keeps it alive by keeping its scheduler, as Swift requires of every custom
/// executor.
final class SerialSchedulerExecutor: SerialExecutor, Sendable {
  let workQueue: WorkQueue

  init(_ workQueue: WorkQueue) { self.workQueue = workQueue }

  func enqueue(_ job: consuming ExecutorJob) {
    workQueue.submit(.job(UnownedJob(job)))
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

  func isIsolatingCurrentContext() -> Bool? { workQueue.isCurrent }

  func checkIsolated() {
    checkArgument(workQueue.isCurrent, "Incorrect isolation: expected to be running on scheduler '\(workQueue.name)'")
  }
}
