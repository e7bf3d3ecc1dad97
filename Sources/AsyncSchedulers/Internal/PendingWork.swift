/// The queues of a scheduler that its owner drives step by step (the virtual-time `TestScheduler`):
/// ready work in FIFO order, and timers ordered by deadline, then by the order they were added.
///
/// This is the engine's seam for the testing module: it sees this type, ``Work`` and the timer
/// handles (``ScheduledTimer``), not the engine's FIFO and heap. Not thread-safe: the owner guards it
/// with its lock. Like the engine's machine, it writes into the timers it holds (their heap index, a
/// repeating timer's grid position), only under that lock.
package struct PendingWork {
  private var ready = WorkFIFO()
  private var timers = TimerHeap()
  private var nextSequence: UInt64 = 0

  /// Empty queues.
  package init() {}

  /// The number of ready jobs.
  package var readyCount: Int { ready.count }
  /// The number of pending timers.
  package var timerCount: Int { timers.count }
  /// The ready jobs, first to run first.
  package var readyWork: ArraySlice<Work> { ready.pending }

  /// Queues `work` after the ready jobs.
  package mutating func appendReady(_ work: Work) { ready.append(work) }

  /// Removes and returns the first ready job.
  package mutating func popReady() -> Work? { ready.popFirst() }

  /// Removes and returns the ready job at `offset` (0 is the first), keeping the others in order.
  /// Linear in the number of ready jobs; for a test scheduler exploring orderings.
  package mutating func removeReady(at offset: Int) -> Work { ready.remove(at: offset) }

  /// Removes the ready jobs `isTaken` selects and returns them in order; the others keep their order.
  package mutating func removeReady(where isTaken: (Work) -> Bool) -> [Work] {
    var taken: [Work] = []
    var kept = WorkFIFO()
    while let work = ready.popFirst() {
      if isTaken(work) { taken.append(work) } else { kept.append(work) }
    }
    ready = kept
    return taken
  }

  /// Adds `timer`, due at `deadline`, after the timers already due then.
  package mutating func addTimer(_ timer: ScheduledTimer, at deadline: SchedulerInstant) {
    timers.insert(timer, deadline: deadline, sequence: nextSequence)
    nextSequence &+= 1
  }

  /// Removes `timer` if it is pending.
  package mutating func removeTimer(_ timer: ScheduledTimer) { timers.remove(timer) }

  /// The earliest timer's deadline, and its handle (`nil` for a fire-and-forget closure, which a driven
  /// scheduler never adds).
  package var firstTimer: (deadline: SchedulerInstant, timer: ScheduledTimer?)? {
    timers.first.map { ($0.deadline, $0.timer) }
  }

  /// Removes the earliest timer, firing at `now`; a repeating timer goes back in, due at its next grid
  /// point after `now`, keeping its place among timers due at the same instant.
  package mutating func popFirstTimer(firingAt now: SchedulerInstant) {
    guard let first = timers.popFirst() else { return }
    if let timer = first.timer, let next = timer.nextDeadline(after: now) {
      timers.insert(timer, deadline: next, sequence: first.sequence)
    }
  }

  /// The pending timers in firing order: each deadline and, for a repeating timer, its interval.
  package var timersInOrder: [(deadline: SchedulerInstant, repeatInterval: Duration?, timer: ScheduledTimer?)] {
    timers.entries.sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
      .map { ($0.deadline, $0.timer?.repeatInterval, $0.timer) }
  }
}
