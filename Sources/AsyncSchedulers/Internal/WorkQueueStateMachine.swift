/// The state of a Dispatch-driven scheduler: ready work, workers, and timers. Pure: every event
/// returns what the storage (``WorkQueueScheduler``) must do once it has released the lock.
struct WorkQueueStateMachine {
  /// How many workers may run at once (1 for a serial scheduler).
  let width: Int
  private(set) var ready = WorkFIFO()
  private(set) var activeWorkers = 0
  private(set) var timers = TimerHeap()
  /// The deadline the platform timer is armed for, if any.
  private var armed: SchedulerInstant?
  private var nextSequence: UInt64 = 0

  init(width: Int) { self.width = width }

  /// Whether nothing is queued or running (used by the inline-when-idle main scheduler).
  var isIdle: Bool { activeWorkers == 0 && ready.isEmpty }

  /// The number of pending timers.
  var timerCount: Int { timers.count }

  // MARK: - Ready work

  /// Queues `work`; returns whether a worker must be started for it.
  mutating func enqueue(_ work: Work) -> Bool {
    ready.append(work)
    return claimWorker()
  }

  /// Claims a worker slot for code that will run work now (an inline run on the main queue).
  /// Returns `false` when the slots are full.
  mutating func claimWorker() -> Bool {
    guard activeWorkers < width else { return false }
    activeWorkers += 1
    return true
  }

  /// Moves all ready work into `batch` (which must be empty) for a serial worker. When there is none,
  /// the worker's slot is released and `false` is returned: the worker must stop.
  mutating func takeBatch(into batch: inout WorkFIFO) -> Bool {
    if ready.isEmpty {
      activeWorkers -= 1
      return false
    }
    swap(&ready, &batch)
    return true
  }

  /// Takes the next ready item for a concurrent worker, or releases the worker's slot and returns nil.
  mutating func takeOne() -> Work? {
    if let work = ready.popFirst() { return work }
    activeWorkers -= 1
    return nil
  }

  /// Releases a worker slot without taking work (after an inline run), unless work is ready, in which
  /// case the slot is kept and `true` says a worker must be dispatched to run it.
  mutating func finishInlineRun() -> Bool {
    if ready.isEmpty {
      activeWorkers -= 1
      return false
    }
    return true
  }

  // MARK: - Timers

  /// What to do with the platform timer.
  enum TimerAction {
    case none
    case arm(SchedulerInstant)
  }

  /// Adds a timer due at `deadline`; arms the alarm when it is the new earliest deadline.
  mutating func addTimer(_ timer: ScheduledTimer, at deadline: SchedulerInstant) -> TimerAction {
    timers.insert(timer, deadline: deadline, sequence: nextSequence)
    nextSequence &+= 1
    guard timers.first?.timer === timer else { return .none }
    if let armed, armed <= deadline { return .none }
    armed = deadline
    return .arm(deadline)
  }

  /// Removes a disposed timer. The platform timer is left armed; an early wake-up finds nothing due.
  mutating func removeTimer(_ timer: ScheduledTimer) {
    timers.remove(timer)
  }

  /// Moves every timer due at `now` to the ready queue in deadline order (repeating ones are re-armed
  /// on their grid first). Returns whether a worker must start and how to re-arm the platform timer.
  mutating func fireDueTimers(now: SchedulerInstant) -> (startWorker: Bool, timer: TimerAction) {
    armed = nil
    var any = false
    while let first = timers.first, first.deadline <= now {
      _ = timers.popFirst()
      ready.append(.action(first.timer))
      any = true
      if let grid = first.timer.grid {
        timers.insert(first.timer, deadline: grid.nextDeadline(after: now), sequence: first.sequence)
      }
    }
    var timer = TimerAction.none
    if let next = timers.firstDeadline {
      armed = next
      timer = .arm(next)
    }
    return (any && claimWorker(), timer)
  }
}
