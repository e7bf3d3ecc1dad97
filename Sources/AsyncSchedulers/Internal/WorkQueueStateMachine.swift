/// The state of a Dispatch-driven scheduler: ready work, workers, and timers. Pure: every event
/// returns what the storage (``WorkQueueScheduler``) must do once it has released the lock.
///
/// Two ways a worker *waits* (keeps its slot, spinning on a signal, holding no lock) instead of
/// returning its thread:
/// - *lingering*: after it drained the queue, for `lingerTime`, so that work arriving right after is taken without submitting a new worker (a
///   Dispatch submission and a thread wake-up cost microseconds; a steady producer a little slower
///   than the worker would otherwise pay them for nearly every job);
/// - *waiting for a timer* due within `timerWindow`: the alarm thread fires that much early and hands
///   the deadline to a worker, which fires the timer itself when it is due, so the latency of waking
///   threads is paid before the deadline instead of after it.
///
/// Timers are watched by an active worker (it fires due timers each time it looks for work, and
/// re-arms the alarm when it returns its slot), or by the process-wide alarm, armed `timerWindow`
/// before the earliest deadline (or at the deadline itself when no worker may spin for it).
///
/// Spinning is limited process-wide (``SpinBudget``); every event takes a `maySpin` hint, and a worker
/// refused a spin comes back with `maySpin: false`, which never answers `.wait`.
package struct WorkQueueStateMachine {
  /// How many workers may run at once (1 for a serial scheduler).
  package var width: Int { Int(widthStorage) }
  private let widthStorage: Int32
  private var timerWindowMicroseconds: Int32
  private let lingerMicroseconds: Int32
  package private(set) var activeWorkers: Int32 = 0
  /// Workers that hold their slot while watching for a signal (lingering or waiting for a timer).
  package private(set) var waitingWorkers: Int32 = 0
  private(set) var ready = WorkFIFO()
  private(set) var timers = TimerHeap()
  /// Fire-and-forget timers (``Scheduler/execute(at:leeway:_:)``): no handle, the closure lives in the
  /// heap entry. Ordered with `timers` by (deadline, sequence), one sequence counter for both.
  private(set) var closureTimers = DeadlineHeap<ClosureTimer>()
  /// When the alarm is armed to go off, if it is.
  package private(set) var armed: SchedulerInstant?
  private var nextSequence: UInt64 = 0

  /// A machine for `width` workers; `timerWindow` and `lingerTime` are whole microseconds (zero: never).
  package init(width: Int, timerWindow: Duration = .zero, lingerTime: Duration = .zero) {
    self.widthStorage = Int32(width)
    self.timerWindowMicroseconds = Int32(timerWindow / .microseconds(1))
    self.lingerMicroseconds = Int32(lingerTime / .microseconds(1))
  }

  /// How long before a deadline a worker takes it over (the storage updates it as it measures the
  /// machine's hand-off latency; whole microseconds).
  package var timerWindow: Duration {
    get { .microseconds(timerWindowMicroseconds) }
    set { timerWindowMicroseconds = Int32(clamping: newValue.saturatingNanoseconds / 1000) }
  }
  /// How long a worker that drained the queue waits for more.
  package var lingerTime: Duration { .microseconds(lingerMicroseconds) }

  /// Whether nothing is queued or running (used by the inline-when-idle main scheduler).
  package var isIdle: Bool { activeWorkers == 0 && ready.isEmpty }

  /// The number of pending timers.
  package var timerCount: Int { timers.count + closureTimers.count }

  /// The earliest deadline of either heap.
  private var firstDeadline: SchedulerInstant? {
    guard let closure = closureTimers.firstDeadline else { return timers.firstDeadline }
    guard let timer = timers.firstDeadline else { return closure }
    return Swift.min(timer, closure)
  }

  // MARK: - Actions

  /// What the storage must do about workers.
  package enum WorkerAction: Equatable {
    /// Nothing: a running or waiting worker will see it.
    case none
    /// Submit a new worker (a slot was claimed for it).
    case startWorker
    /// Signal the waiting workers (they hold their slots and watch the signal).
    case wakeWaiting
  }

  /// What the storage must do with the alarm.
  package enum TimerAction: Equatable {
    case none
    /// Arm (or move) the alarm to go off at this instant.
    case arm(SchedulerInstant)
  }

  // MARK: - Ready work

  /// Queues `work` and says how it will be picked up.
  package mutating func enqueue(_ work: Work) -> WorkerAction {
    ready.append(work)
    if waitingWorkers > 0 { return .wakeWaiting }
    return claimWorker() ? .startWorker : .none
  }

  /// Claims a worker slot for code that will run work now (an inline run on the main queue).
  /// Returns `false` when the slots are full.
  package mutating func claimWorker() -> Bool {
    guard activeWorkers < widthStorage else { return false }
    activeWorkers += 1
    return true
  }

  /// Releases a worker slot without taking work (after an inline run), unless work is ready, in which
  /// case the slot is kept and `true` says a worker must be dispatched to run it.
  package mutating func finishInlineRun(now: SchedulerInstant) -> (startWorker: Bool, timer: TimerAction) {
    if !ready.isEmpty { return (true, .none) }
    activeWorkers -= 1
    let (worker, timer) = watchTimers(now: now, maySpin: false)
    return (worker == .startWorker, timer)
  }

  // MARK: - Workers

  /// What a worker does next.
  package enum WorkerStep: Equatable {
    /// Run what was taken.
    case run
    /// Keep the slot and watch the signal until this instant, then ask again with `wasWaiting`.
    case wait(until: SchedulerInstant)
    /// The slot was released: the worker must return (after performing the timer action).
    case stop(TimerAction)
  }

  /// Fires due timers, then moves all ready work into `batch` (which must be empty) for a serial
  /// worker. With nothing ready, the worker waits (for a timer due within the window, or lingers if
  /// `mayLinger`) when `maySpin`, or else stops. `wasWaiting` says it is coming back from a wait.
  package mutating func takeBatch(
    into batch: inout WorkFIFO, now: SchedulerInstant, mayLinger: Bool, maySpin: Bool, wasWaiting: Bool
  ) -> WorkerStep {
    if wasWaiting { waitingWorkers -= 1 }
    fireDue(now: now)
    if !ready.isEmpty {
      swap(&ready, &batch)
      return .run
    }
    return idle(now: now, mayLinger: mayLinger, maySpin: maySpin)
  }

  /// Takes the next ready item for a concurrent worker (`.run` with the item), or waits or stops as
  /// ``takeBatch(into:now:mayLinger:maySpin:wasWaiting:)`` does.
  package mutating func takeOne(
    now: SchedulerInstant, mayLinger: Bool, maySpin: Bool, wasWaiting: Bool
  ) -> (WorkerStep, Work?) {
    if wasWaiting { waitingWorkers -= 1 }
    fireDue(now: now)
    if let work = ready.popFirst() { return (.run, work) }
    return (idle(now: now, mayLinger: mayLinger, maySpin: maySpin), nil)
  }

  private mutating func idle(now: SchedulerInstant, mayLinger: Bool, maySpin: Bool) -> WorkerStep {
    if maySpin {
      if let first = firstDeadline, first <= now.advanced(by: timerWindow) {
        waitingWorkers += 1
        return .wait(until: first)
      }
      if mayLinger && lingerMicroseconds > 0 {
        waitingWorkers += 1
        return .wait(until: now.advanced(by: lingerTime))
      }
    }
    activeWorkers -= 1
    // Nothing is ready, and an imminent timer gets the exact-deadline alarm: this never claims a worker.
    return .stop(watchTimers(now: now, maySpin: false).timer)
  }

  // MARK: - Timers

  /// Adds a timer due at `deadline`. When it is the new earliest timer, makes sure someone watches it.
  package mutating func addTimer(
    _ timer: ScheduledTimer, at deadline: SchedulerInstant, now: SchedulerInstant, maySpin: Bool
  ) -> (worker: WorkerAction, timer: TimerAction) {
    let previous = firstDeadline
    timers.insert(timer, deadline: deadline, sequence: nextSequence)
    nextSequence &+= 1
    return added(at: deadline, before: previous, now: now, maySpin: maySpin)
  }

  /// Adds a fire-and-forget timer running `body` at `deadline`; see ``addTimer(_:at:now:maySpin:)``.
  package mutating func addTimer(
    at deadline: SchedulerInstant, now: SchedulerInstant, maySpin: Bool, _ body: @escaping @Sendable () -> Void
  ) -> (worker: WorkerAction, timer: TimerAction) {
    let previous = firstDeadline
    closureTimers.insert(ClosureTimer(deadline: deadline, sequence: nextSequence, body: body))
    nextSequence &+= 1
    return added(at: deadline, before: previous, now: now, maySpin: maySpin)
  }

  /// After adding a timer due at `deadline`: when it is the new earliest, makes sure someone watches it.
  private mutating func added(
    at deadline: SchedulerInstant, before previous: SchedulerInstant?, now: SchedulerInstant, maySpin: Bool
  ) -> (worker: WorkerAction, timer: TimerAction) {
    if let previous, previous <= deadline { return (.none, .none) }
    // A waiting worker may be waiting for a later deadline: signal it to look again.
    if waitingWorkers > 0 { return (.wakeWaiting, .none) }
    return watchTimers(now: now, maySpin: maySpin)
  }

  /// Removes a disposed timer. The alarm is left armed; an early alarm finds nothing to do.
  package mutating func removeTimer(_ timer: ScheduledTimer) {
    timers.remove(timer)
  }

  /// The alarm went off: fires due timers, and hands ready work and an imminent timer to a worker, or
  /// re-arms.
  package mutating func alarmFired(now: SchedulerInstant, maySpin: Bool) -> (worker: WorkerAction, timer: TimerAction) {
    armed = nil
    fireDue(now: now)
    return watchTimers(now: now, maySpin: maySpin)
  }

  /// Moves every timer due at `now` to the ready queue in deadline order (repeating ones are re-armed
  /// on their grid first).
  private mutating func fireDue(now: SchedulerInstant) {
    while true {
      let timer = timers.firstDeadline.map { ($0, timers.firstSequence!) }
      let closure = closureTimers.firstDeadline.map { ($0, closureTimers.firstSequence!) }
      if let closure, closure.0 <= now, timer.map({ closure < $0 }) ?? true {
        ready.append(.closure(closureTimers.popFirst()!.body))
      } else if let timer, timer.0 <= now {
        let first = timers.popFirst()!
        ready.append(.action(first.timer))
        if let next = first.timer.nextDeadline(after: now) {
          timers.insert(first.timer, deadline: next, sequence: first.sequence)
        }
      } else {
        return
      }
    }
  }

  /// Makes sure ready work and the earliest timer are watched: by a waiting worker (signalled), by a
  /// running worker (it fires due timers whenever it looks for work), by a newly claimed worker (when
  /// work is ready or a timer is already due, or the earliest timer is within the window and a worker
  /// may spin for it), or by the alarm (a window early, or at the deadline when the timer is already
  /// within the window).
  private mutating func watchTimers(now: SchedulerInstant, maySpin: Bool) -> (worker: WorkerAction, timer: TimerAction) {
    let first = firstDeadline
    let early = first.map { $0.advanced(by: .zero - timerWindow) }
    let imminent = early.map { $0 <= now } ?? false
    let due = first.map { $0 <= now } ?? false
    var worker = WorkerAction.none
    if !ready.isEmpty || due || (imminent && maySpin) {
      if waitingWorkers > 0 { return (.wakeWaiting, .none) }
      if claimWorker() { worker = .startWorker }
    }
    // Any active worker watches the timers and re-arms when it stops; a concurrent scheduler with free
    // slots also keeps the alarm, so a timer need not wait for a long job to end.
    guard let first, let early, !due, waitingWorkers == 0, activeWorkers < widthStorage else { return (worker, .none) }
    let alarmTime = imminent ? first : early
    if let armed, armed <= alarmTime { return (worker, .none) }
    armed = alarmTime
    return (worker, .arm(alarmTime))
  }
}

/// A fire-and-forget timer: its closure, kept in the heap entry itself (no handle, no object).
package struct ClosureTimer: DeadlineHeapEntry {
  /// When the closure is due.
  package var deadline: SchedulerInstant
  /// Tie-breaker among equal deadlines.
  package var sequence: UInt64
  /// The closure.
  package var body: @Sendable () -> Void

  @inline(__always)
  package func didMove(to index: Int) {}
}
