import AsyncSchedulers

/// Copies of what a ``TestScheduler`` holds, taken under its lock, for messages written after it.
extension TestSchedulerStateMachine {
  /// What the current driving call ran at the current instant and what is pending, when it stopped
  /// as runaway work (`nil` otherwise).
  package func runawaySnapshot() -> RunawaySnapshot? {
    guard isRunaway else { return nil }
    let counts = runAtInstant
    return RunawaySnapshot(
      callbacks: counts.callbacks, bridged: counts.bridged, mainQueueBlocks: counts.mainQueueBlocks,
      tasks: counts.tasks, timers: counts.timers, pending: pendingSnapshot())
  }

  /// A copy of what is pending, for failure messages.
  package func pendingSnapshot() -> PendingWorkSnapshot {
    let ready = queues.readyWork.map(PendingWorkSnapshot.ReadyKind.init)
    let timers = queues.timersInOrder.map { entry in
      PendingWorkSnapshot.Timer(
        deadline: entry.deadline, repeatInterval: entry.repeatInterval,
        label: entry.timer.flatMap { sleeps.label(of: $0) })
    }
    return PendingWorkSnapshot(now: now, ready: ready, timers: timers, abandonedSleeps: sleeps.abandonedCount)
  }
}

extension PendingWorkSnapshot.ReadyKind {
  /// The kind of `work`, as failure messages name it (a runnable job says what it is: its `role`).
  init(_ work: Work) {
    switch work {
    case .action, .closure: self = .callback
    case .runnable(let job):
      switch job.role {
      case .taskJob: self = .taskJob
      case .mainQueueBlock: self = .mainQueueBlock
      case .bridgedBlock: self = .bridgedBlock
      }
    case .job: self = .actorJob
    case .taskJob: self = .taskJob
    }
  }
}
