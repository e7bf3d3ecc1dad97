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
  /// Workers holding a slot: starting, running work, or waiting (and an inline run on the caller).
  package private(set) var activeWorkers: Int32 = 0
  /// Workers that hold their slot while watching for a signal (lingering or waiting for a timer).
  package private(set) var waitingWorkers: Int32 = 0
  /// Workers submitted (or re-submitted) to the target queue that have not yet asked for work.
  package private(set) var startingWorkers: Int32 = 0
  private(set) var ready = WorkFIFO()
  private(set) var timers = TimerHeap()
  /// Fire-and-forget timers (``Scheduler/execute(at:leeway:_:)``): no handle, the closure lives in the
  /// heap entry. Ordered with `timers` by (deadline, sequence), one sequence counter for both.
  private(set) var closureTimers = DeadlineHeap<ClosureTimer>()
  /// When the alarm is armed to go off, if it is.
  package private(set) var armed: SchedulerInstant?
  private var nextSequence: UInt64 = 0

  /// A machine for `width` workers (above `Int32.max`, `Int32.max`); `timerWindow` and `lingerTime` are
  /// whole microseconds (zero: never).
  package init(width: Int, timerWindow: Duration = .zero, lingerTime: Duration = .zero) {
    self.widthStorage = Int32(clamping: width)
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

  /// The number of ready items.
  package var readyCount: Int { ready.count }

  /// The earliest pending deadline, if any.
  package var firstTimerDeadline: SchedulerInstant? { firstDeadline }

  /// The earliest deadline of either heap.
  private var firstDeadline: SchedulerInstant? {
    guard let closure = closureTimers.firstDeadline else { return timers.firstDeadline }
    guard let timer = timers.firstDeadline else { return closure }
    return Swift.min(timer, closure)
  }

  // MARK: - Actions

  /// What the storage must do about workers: submit `start` new workers (a slot was claimed for
  /// each), and signal the waiting workers if `wake` (they hold their slots and watch the signal).
  package struct WorkerAction: Equatable, Sendable {
    /// How many workers to submit.
    package var start: Int32
    /// Whether to signal the waiting workers.
    package var wake: Bool

    /// Nothing: a running, starting or waiting worker will see it.
    package static let none = WorkerAction(start: 0, wake: false)
    /// Submit one new worker.
    package static let startWorker = WorkerAction(start: 1, wake: false)
    /// Signal the waiting workers.
    package static let wakeWaiting = WorkerAction(start: 0, wake: true)
  }

  /// How a worker comes to ask for work.
  package enum WorkerArrival: Equatable, Sendable {
    /// It was just submitted (or re-submitted after its budget) to the target queue.
    case started
    /// It comes back from a ``WorkerStep/wait(until:)``.
    case waited
    /// It ran the work it took last time.
    case ran
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
    return workersForReady()
  }

  /// Makes sure ready work has takers: waiting workers are signalled, and new workers are claimed while
  /// there are more ready items than workers about to ask for work (starting or waiting) and slots are
  /// free. After it, a ready item and a free slot never coexist unless a taker is on its way for it.
  private mutating func workersForReady() -> WorkerAction {
    guard !ready.isEmpty else { return .none }
    let takers = Int(startingWorkers) + Int(waitingWorkers)
    let wanted = width == 1 ? (takers == 0 ? 1 : 0) : Swift.max(ready.count - takers, 0)
    let start = Int32(Swift.min(wanted, Int(widthStorage - activeWorkers)))
    activeWorkers += start
    startingWorkers += start
    return WorkerAction(start: start, wake: waitingWorkers > 0)
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
    if !ready.isEmpty {
      startingWorkers += 1
      return (true, .none)
    }
    activeWorkers -= 1
    let (worker, timer) = watchTimers(now: now, maySpin: false)
    return (worker.start > 0, timer)
  }

  /// A worker that ran its budget gives its thread back and is submitted again, keeping its slot.
  package mutating func resubmitWorker() {
    startingWorkers += 1
  }

  private mutating func arrive(_ arrival: WorkerArrival) {
    switch arrival {
    case .started: startingWorkers -= 1
    case .waited: waitingWorkers -= 1
    case .ran: break
    }
  }

  // MARK: - Workers

  /// What a worker does next.
  package enum WorkerStep: Equatable {
    /// Run what was taken.
    case run
    /// Keep the slot and watch the signal until this instant, then ask again `from: .waited`.
    case wait(until: SchedulerInstant)
    /// The slot was released: the worker must return (after performing the timer action).
    case stop(TimerAction)
  }

  /// Fires due timers, then moves all ready work into `batch` (which must be empty) for a serial
  /// worker. With nothing ready, the worker waits (for a timer due within the window, or lingers if
  /// `mayLinger`) when `maySpin`, or else stops. `from` says how the worker comes to ask.
  package mutating func takeBatch(
    into batch: inout WorkFIFO, now: SchedulerInstant, mayLinger: Bool, maySpin: Bool, from arrival: WorkerArrival
  ) -> WorkerStep {
    arrive(arrival)
    fireDue(now: now)
    if !ready.isEmpty {
      swap(&ready, &batch)
      return .run
    }
    return idle(now: now, mayLinger: mayLinger, maySpin: maySpin)
  }

  /// Takes the next ready item for a concurrent worker (`.run` with the item), or waits or stops as
  /// ``takeBatch(into:now:mayLinger:maySpin:from:)`` does. When it takes an item, the returned
  /// actions start (or wake) more workers while more items are ready than workers on their way to take
  /// them (up to the width), and keep the alarm armed for the timers while slots are free (a running
  /// job must not hold a timer up).
  package mutating func takeOne(
    now: SchedulerInstant, mayLinger: Bool, maySpin: Bool, from arrival: WorkerArrival
  ) -> (step: WorkerStep, work: Work?, workers: WorkerAction, timer: TimerAction) {
    arrive(arrival)
    fireDue(now: now)
    if let work = ready.popFirst() {
      let (workers, timer) = watchTimers(now: now, maySpin: false)
      return (.run, work, workers, timer)
    }
    return (idle(now: now, mayLinger: mayLinger, maySpin: maySpin), nil, .none, .none)
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
    var worker = workersForReady()
    if worker.wake { return (worker, .none) }
    if ready.isEmpty && (due || (imminent && maySpin)) && startingWorkers == 0 {
      if waitingWorkers > 0 { return (.wakeWaiting, .none) }
      if claimWorker() {
        startingWorkers += 1
        worker = .startWorker
      }
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
