/// The one place a ``Work`` item is run, shared by every scheduler of this package (the real-time
/// engine, the trampoline, and the virtual-time `TestScheduler`), so that callbacks, bridged jobs and
/// actor and task jobs mean the same thing everywhere.
package struct WorkRunner {
  /// How actor jobs (``Work/job(_:)``) run.
  package enum ActorJobs {
    /// On the serial executor only: nonisolated code they call leaves the scheduler (the usual Swift
    /// semantics of an actor on a custom executor).
    case onSerialExecutor
    /// Isolated to the serial executor *and* preferring the task executor, so nonisolated code they
    /// call stays on the scheduler (virtual time: nothing may leave it).
    case preferringTaskExecutor
  }

  /// The serial executor jobs are isolated to, or `nil` for a concurrent scheduler.
  let serial: UnownedSerialExecutor?
  /// The task executor jobs of preferring tasks run on, or `nil` when the scheduler that queued them
  /// is gone (then no task can prefer it, and no task job can be queued).
  let taskExecutor: UnownedTaskExecutor?
  /// How actor jobs run.
  let actorJobs: ActorJobs
  /// Whether task jobs run isolated to `serial` (a serial scheduler runs one job at a time, so a task
  /// preferring it may claim its isolation) or nonisolated on `taskExecutor`.
  let isolatesTaskJobs: Bool

  /// A runner for a scheduler with these executors.
  @inline(__always)
  package init(
    serial: UnownedSerialExecutor?, taskExecutor: UnownedTaskExecutor?, actorJobs: ActorJobs = .onSerialExecutor,
    isolatesTaskJobs: Bool = true
  ) {
    self.serial = serial
    self.taskExecutor = taskExecutor
    self.actorJobs = actorJobs
    self.isolatesTaskJobs = isolatesTaskJobs
  }

  /// Runs `work` on the calling thread. Called by schedulers only, with no lock held.
  @inline(__always)
  package func run(_ work: Work) {
    switch work {
    case .action(let action):
      action.run()
    case .closure(let action):
      action()
    case .runnable(let job):
      job.runJob()
    case .job(let job):
      guard let serial else {
        // Only a serial scheduler's executor queues actor jobs; the trampoline runs them as task jobs.
        job.runSynchronously(on: requireTaskExecutor())
        return
      }
      switch actorJobs {
      case .onSerialExecutor: job.runSynchronously(on: serial)
      case .preferringTaskExecutor: job.runSynchronously(isolatedTo: serial, taskExecutor: requireTaskExecutor())
      }
    case .taskJob(let job):
      if isolatesTaskJobs, let serial {
        job.runSynchronously(isolatedTo: serial, taskExecutor: requireTaskExecutor())
      } else {
        job.runSynchronously(on: requireTaskExecutor())
      }
    }
  }

  @inline(__always)
  private func requireTaskExecutor() -> UnownedTaskExecutor {
    guard let taskExecutor else {
      preconditionFailure(
        "A task job reached a scheduler that has been deallocated: keep a scheduler alive while tasks prefer it")
    }
    return taskExecutor
  }
}
