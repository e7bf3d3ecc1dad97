import AsyncSchedulers

/// What a ``TestScheduler``'s state machine keeps while it explores orderings: the run's
/// ``OrderExplorer`` and the lanes of its ready jobs, kept in step with the ready FIFO (one tag per job,
/// same order), so that choosing the next job reads no job under the lock.
///
/// Each tag is read from its job when the job is queued (``OrderExplorer/lane(of:)``, a runtime call
/// made before the scheduler takes its lock); `nil` marks a job queued before the run explored, which
/// counts as the scheduler's queue. Not thread-safe: the state machine owns it, under the scheduler's
/// lock.
package struct ExplorationState {
  /// The run's choices so far.
  package private(set) var explorer: OrderExplorer
  private var tags = FIFOBuffer<OrderExplorer.Tag?>()

  /// Exploration with `explorer`, `alreadyQueued` jobs being ready (with no lane).
  package init(explorer: OrderExplorer, alreadyQueued: Int) {
    self.explorer = explorer
    for _ in 0..<alreadyQueued { tags.append(nil) }
  }

  /// Whether choices are made (the scope's body runs on the scheduler).
  package var isActive: Bool { explorer.isActive }

  /// Starts or stops making choices.
  package mutating func setActive(_ active: Bool) { explorer.setActive(active) }

  /// The number of ready jobs it holds a tag for.
  package var count: Int { tags.count }

  /// Notes a job queued after the others, with its lane.
  package mutating func queued(_ tag: OrderExplorer.Tag?) { tags.append(tag) }

  /// The offset in the ready FIFO of the job to run next (0, the first, when no choices are made), at
  /// virtual instant `now`; forgets its tag. Call only with one job ready at least.
  package mutating func takeNext(now: SchedulerInstant) -> Int {
    guard explorer.isActive else {
      _ = tags.popFirst()
      return 0
    }
    let offset = explorer.choose(among: tags.pending, now: now)
    _ = tags.remove(at: offset)
    return offset
  }

  /// Forgets the tags of the jobs `taken` selects (one entry per ready job, in order).
  package mutating func removeTaken(_ taken: [Bool]) {
    var kept = FIFOBuffer<OrderExplorer.Tag?>()
    for (tag, isTaken) in zip(tags.pending, taken) where !isTaken { kept.append(tag) }
    tags = kept
  }
}
