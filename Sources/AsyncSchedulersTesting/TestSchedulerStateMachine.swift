import AsyncSchedulers

/// The state of a ``TestScheduler``: its virtual clock, ready work and timers. Pure: methods return
/// what to run; the scheduler runs it after releasing its lock.
struct TestSchedulerStateMachine {
  private(set) var now: SchedulerInstant
  private(set) var ready = WorkFIFO()
  private(set) var timers = TimerHeap()
  private var nextSequence: UInt64 = 0
  /// Whether a driving call (`advance`, `run`, `step`) is running; they may not nest.
  var isDriving = false
  /// Whether a test thread is blocked waiting for work to arrive (see `TestScheduler.runUntil`).
  var waiterBlocked = false

  init(now: SchedulerInstant) { self.now = now }

  var pendingCount: Int { ready.count + timers.count }
  var nextDeadline: SchedulerInstant? { ready.isEmpty ? timers.firstDeadline : now }

  /// Queues ready work; returns whether a blocked waiter must be woken.
  mutating func enqueue(_ work: Work) -> Bool {
    ready.append(work)
    return takeWaiter()
  }

  /// Adds a timer due at `deadline`; returns whether a blocked waiter must be woken.
  mutating func addTimer(_ timer: ScheduledTimer, at deadline: SchedulerInstant) -> Bool {
    timers.insert(timer, deadline: deadline, sequence: nextSequence)
    nextSequence &+= 1
    return takeWaiter()
  }

  private mutating func takeWaiter() -> Bool {
    defer { waiterBlocked = false }
    return waiterBlocked
  }

  mutating func removeTimer(_ timer: ScheduledTimer) { timers.remove(timer) }

  mutating func popReady() -> Work? { ready.popFirst() }

  /// Pops the earliest timer due at or before `limit`, moving the clock to its deadline (never
  /// backwards); a repeating timer is re-armed on its grid first, keeping its sequence number.
  mutating func popTimer(dueBy limit: SchedulerInstant) -> ScheduledTimer? {
    guard let first = timers.first, first.deadline <= limit else { return nil }
    _ = timers.popFirst()
    if first.deadline > now { now = first.deadline }
    if let next = first.timer.nextDeadline(after: now) {
      timers.insert(first.timer, deadline: next, sequence: first.sequence)
    }
    return first.timer
  }

  /// Moves the clock forward to `instant` (never backwards).
  mutating func move(to instant: SchedulerInstant) {
    if instant > now { now = instant }
  }

  /// A description of everything pending, for failure messages.
  func describePending(name: String) -> String {
    var lines: [String] = []
    for work in ready.pending {
      switch work {
      case .action, .closure, .runnable: lines.append("  - callback job, ready at \(now)")
      case .job, .taskJob: lines.append("  - task or actor job, ready at \(now)")
      }
    }
    for entry in timers.entries.sorted(by: { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }) {
      if let interval = entry.timer.repeatInterval {
        lines.append("  - repeating timer due at \(entry.deadline), every \(interval)")
      } else {
        lines.append("  - timer or sleep due at \(entry.deadline)")
      }
    }
    return "TestScheduler '\(name)' at \(now) has \(pendingCount) pending item(s):\n" + lines.joined(separator: "\n")
  }
}
