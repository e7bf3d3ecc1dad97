/// The state of a Dispatch-driven scheduler's engine: ready work, workers and timers. Pure: every event
/// takes what it needs as arguments (the time, the punctuality policy, whether a spin slot is held) and
/// returns what the storage (``WorkQueue``) must do once it has released the lock.
///
/// It writes into the timers it holds, under the engine's lock: their heap index (see ``TimerHeap``), a
/// repeating timer's position on its grid (`nextDeadline(after:)` advances it, so the next firing is
/// anchored to the start and never drifts), and its queued-run flag (`shouldQueueRun()`, so ticks that
/// come due while a run is queued coalesce into it). Keeping these in the timer, not in a map keyed by
/// it, makes disposing and re-arming O(log n) with no lookup.
///
/// By default (``Punctuality/efficient``) a worker never waits: it drains the ready work and returns
/// its thread, and timers are watched by the process-wide alarm thread, which sleeps in the kernel
/// within the alarm's firing window. That window is where leeway is honoured: it ends at the earliest
/// `deadline + leeway` of the pending timers, and starts once every timer due by that end is due, so
/// one wake-up anywhere in it fires that whole group, none before its deadline and none past its leeway.
///
/// With ``Punctuality/lowLatency(timerWindow:linger:)`` (opt-in), a worker holding a spin slot may
/// *wait* (keep its slot, watching a signal, holding no lock) instead of returning its thread:
/// - *lingering*: after it drained the queue, for `linger`, so that work arriving right after is taken
///   without submitting a new worker;
/// - *waiting for a timer* due within `timerWindow`: the alarm fires that much early and a worker
///   spins to the deadline, so the latency of waking threads is paid before it.
///
/// That policy lives in ``Punctuality``'s three methods (when to wait instead of stopping, whether a
/// timer is imminent, when the alarm goes off); the machine asks them and reads the same in both modes.
struct WorkQueueStateMachine {
  /// How a scheduler's workers may wait instead of returning their thread.
  struct Punctuality: Equatable, Sendable {
    /// How long before a deadline a worker takes a timer over and spins to it (zero: never).
    var timerWindow: Duration
    /// How long a worker that drained the queue watches for more before returning (zero: never).
    var linger: Duration

    /// Never wait: no spinning; timers are fired by the alarm thread's kernel wait.
    static let efficient = Punctuality(timerWindow: .zero, linger: .zero)

    /// Waits for imminent timers within `timerWindow` and lingers `linger` after draining.
    static func lowLatency(timerWindow: Duration, linger: Duration) -> Punctuality {
      Punctuality(timerWindow: timerWindow, linger: linger)
    }

    // The policy, in one place: the efficient default never waits and alarms at the timers' firing
    // window; the low-latency mode waits (holding a spin slot) and alarms a window early.

    /// Until when a worker that found nothing to run keeps its slot and waits instead of stopping (it
    /// holds a spin slot): for the first timer, if it is due within the window; else, once per drain, for
    /// the linger time. `nil`: it stops (always, in the efficient mode).
    func waitInsteadOfStopping(
      firstTimer: SchedulerInstant?, now: SchedulerInstant, mayLinger: Bool
    ) -> SchedulerInstant? {
      if timerWindow > .zero, let firstTimer, firstTimer <= now.advanced(by: timerWindow) { return firstTimer }
      if mayLinger && linger > .zero { return now.advanced(by: linger) }
      return nil
    }

    /// Whether `deadline` is close enough that a worker should take it over and spin to it (never in
    /// the efficient mode).
    func isImminent(_ deadline: SchedulerInstant, now: SchedulerInstant) -> Bool {
      timerWindow > .zero && deadline.advanced(by: .zero - timerWindow) <= now
    }

    /// When the alarm should go off for timers whose earliest is `first`: their firing window (leeway
    /// coalescing) by default; in the low-latency mode a window early (a worker spins the rest), or at
    /// the deadline itself for an imminent timer that no worker is spinning for.
    func alarm(
      first: SchedulerInstant, imminent: Bool,
      firingWindow: @autoclosure () -> (start: SchedulerInstant, end: SchedulerInstant)?
    ) -> (earliest: SchedulerInstant, latest: SchedulerInstant) {
      guard timerWindow > .zero else { return firingWindow().map { ($0.start, $0.end) } ?? (first, first) }
      if imminent { return (first, first) }
      let early = first.advanced(by: .zero - timerWindow)
      return (early, early)
    }
  }

  /// One worker's state between two events: kept by the worker, changed only by the machine.
  struct Worker: Equatable, Sendable {
    /// How the worker comes to ask for work.
    fileprivate var arrival = Arrival.started
    /// Whether work ran since its last wait (a worker lingers at most once per drain).
    fileprivate var mayLinger = true

    /// A worker just submitted to the target queue (the machine claimed its slot).
    init() {}
  }

  fileprivate enum Arrival: Equatable, Sendable {
    /// Just submitted (or re-submitted after its budget) to the target queue.
    case started
    /// Back from a ``WorkerStep/wait(until:)``.
    case waited
    /// It ran the work it took last time.
    case ran
  }

  /// How many workers may run at once (1 for a serial scheduler).
  let width: Int32
  /// Workers holding a slot: starting, running work, or waiting (and an inline run on the caller).
  private(set) var activeWorkers: Int32 = 0
  /// Workers that hold their slot while watching for a signal (lingering or waiting for a timer).
  private(set) var waitingWorkers: Int32 = 0
  /// Workers submitted (or re-submitted) to the target queue that have not yet asked for work.
  private(set) var startingWorkers: Int32 = 0
  private(set) var ready = WorkFIFO()
  private(set) var timers = TimerHeap()
  /// The end of the alarm's firing window, if the alarm is armed.
  private(set) var armed: SchedulerInstant?
  private var nextSequence: UInt64 = 0

  /// A machine for `width` workers (above `Int32.max`, `Int32.max`).
  init(width: Int) {
    checkArgument(width >= 1, "a scheduler needs a width of at least 1 (got \(width))")
    self.width = Int32(clamping: width)
  }

  /// Whether nothing is queued or running (used by the inline-when-idle main scheduler).
  var isIdle: Bool { activeWorkers == 0 && ready.isEmpty }

  /// The number of pending timers.
  var timerCount: Int { timers.count }

  /// The number of ready items.
  var readyCount: Int { ready.count }

  /// The earliest pending deadline, if any.
  var firstTimerDeadline: SchedulerInstant? { timers.firstDeadline }

  // MARK: - Actions

  /// What the storage must do about workers: submit `start` new workers (a slot was claimed for
  /// each), and signal the waiting workers if `wake` (they hold their slots and watch the signal).
  struct WorkerAction: Equatable, Sendable {
    /// How many workers to submit.
    var start: Int32
    /// Whether to signal the waiting workers.
    var wake: Bool

    /// Nothing: a running, starting or waiting worker will see it.
    static let none = WorkerAction(start: 0, wake: false)
    /// Submit one new worker.
    static let startWorker = WorkerAction(start: 1, wake: false)
    /// Signal the waiting workers.
    static let wakeWaiting = WorkerAction(start: 0, wake: true)
  }

  /// What the storage must do with the alarm.
  enum TimerAction: Equatable, Sendable {
    case none
    /// Arm (or move) the alarm to go off between `earliest` and `latest` (one kernel wait; the
    /// alarm clock may fire it with other alarms anywhere in that window).
    case arm(earliest: SchedulerInstant, latest: SchedulerInstant)
  }

  /// What the storage does once it has released the lock after an event: start (or wake) workers,
  /// and arm the alarm. Every event that can do both returns one of these.
  struct Action: Equatable, Sendable {
    /// The workers to start or wake.
    var worker: WorkerAction
    /// What to do with the alarm.
    var timer: TimerAction

    /// Nothing to do.
    static let none = Action(worker: .none, timer: .none)
  }

  /// What a worker does next.
  enum WorkerStep: Equatable, Sendable {
    /// Run what was taken, after performing `action` (a concurrent worker that took one item may start
    /// more workers for the rest, and keep the alarm armed while it runs).
    case run(Action)
    /// Keep the slot and watch the signal until this instant, then ask again (only ever answered to
    /// a worker that holds a spin slot).
    case wait(until: SchedulerInstant)
    /// The slot was released: the worker must return (after performing the timer action).
    case stop(TimerAction)
  }

  // MARK: - Ready work

  /// Queues `work` and says how it will be picked up.
  mutating func enqueue(_ work: Work) -> WorkerAction {
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
    let start = Int32(Swift.min(wanted, Int(width - activeWorkers)))
    activeWorkers += start
    startingWorkers += start
    return WorkerAction(start: start, wake: waitingWorkers > 0)
  }

  /// Claims a worker slot for code that will run work now (an inline run on the main queue).
  /// Returns `false` when the slots are full.
  mutating func claimWorker() -> Bool {
    guard activeWorkers < width else { return false }
    activeWorkers += 1
    return true
  }

  /// Releases a worker slot without taking work (after an inline run), unless work is ready, in which
  /// case the slot is kept and the action starts a worker to run it.
  mutating func finishInlineRun(now: SchedulerInstant, punctuality: Punctuality) -> Action {
    if !ready.isEmpty {
      startingWorkers += 1
      return Action(worker: .startWorker, timer: .none)
    }
    activeWorkers -= 1
    return watchTimers(now: now, punctuality: punctuality, maySpin: false)
  }

  /// A worker that ran its budget gives its thread back and is submitted again, keeping its slot: a
  /// new ``Worker()`` takes over from `worker`.
  mutating func resubmit(_ worker: consuming Worker) {
    startingWorkers += 1
  }

  private mutating func arrive(_ worker: inout Worker) {
    switch worker.arrival {
    case .started: startingWorkers -= 1
    case .waited: waitingWorkers -= 1
    case .ran: break
    }
  }

  // MARK: - Workers

  /// Fires due timers, then moves all ready work into `batch` (which must be empty) for a serial
  /// worker. With nothing ready, the worker waits when `maySpin` and the punctuality allows it (for
  /// a timer due within the window, or lingering once per drain), or else stops.
  mutating func takeBatch(
    into batch: inout WorkFIFO, worker: inout Worker, now: SchedulerInstant, punctuality: Punctuality,
    maySpin: Bool
  ) -> WorkerStep {
    arrive(&worker)
    fireDue(now: now)
    if !ready.isEmpty {
      swap(&ready, &batch)
      worker.arrival = .ran
      worker.mayLinger = true
      return .run(.none)
    }
    // Both are empty: the ready queue keeps the batch's buffer (if small) for the next work, so a
    // worker per timer tick allocates and frees no buffer.
    if ready.capacity < batch.capacity && batch.capacity <= Self.keptBufferCapacity { swap(&ready, &batch) }
    return idle(&worker, now: now, punctuality: punctuality, maySpin: maySpin)
  }

  /// The largest emptied batch buffer the ready queue keeps for reuse.
  static let keptBufferCapacity = 64

  /// Takes the next ready item into `taken` for a concurrent worker, or waits or stops as
  /// ``takeBatch(into:worker:now:punctuality:maySpin:)`` does. When it takes an item, the `.run`
  /// action starts (or wakes) more workers while more items are ready than workers on their way to take
  /// them (up to the width), and keeps the alarm armed for the timers while slots are free (a running
  /// job must not hold a timer up).
  mutating func takeOne(
    into taken: inout Work?, worker: inout Worker, now: SchedulerInstant, punctuality: Punctuality, maySpin: Bool
  ) -> WorkerStep {
    arrive(&worker)
    fireDue(now: now)
    if let work = ready.popFirst() {
      worker.arrival = .ran
      worker.mayLinger = true
      taken = work
      return .run(watchTimers(now: now, punctuality: punctuality, maySpin: false))
    }
    return idle(&worker, now: now, punctuality: punctuality, maySpin: maySpin)
  }

  private mutating func idle(
    _ worker: inout Worker, now: SchedulerInstant, punctuality: Punctuality, maySpin: Bool
  ) -> WorkerStep {
    if maySpin,
      let until = punctuality.waitInsteadOfStopping(
        firstTimer: timers.firstDeadline, now: now, mayLinger: worker.mayLinger)
    {
      waitingWorkers += 1
      worker.arrival = .waited
      worker.mayLinger = false
      return .wait(until: until)
    }
    activeWorkers -= 1
    // Nothing is ready, and an imminent timer gets the exact-deadline alarm: this never claims a worker.
    return .stop(watchTimers(now: now, punctuality: punctuality, maySpin: false).timer)
  }

  // MARK: - Timers

  /// Adds a timer due at `deadline`, at most `leeway` late (a negative leeway counts as zero). When it
  /// is the new earliest timer, or its window closes before the alarm's, makes sure someone watches it.
  mutating func addTimer(
    _ payload: TimerHeap.Payload, at deadline: SchedulerInstant, leeway: Duration, now: SchedulerInstant,
    punctuality: Punctuality, maySpin: Bool
  ) -> Action {
    let previous = timers.firstDeadline
    timers.insert(payload, deadline: deadline, leeway: leeway, sequence: nextSequence)
    nextSequence &+= 1
    let isEarliest = previous.map { deadline < $0 } ?? true
    let closesEarlier = armed.map { deadline.advanced(by: Swift.max(leeway, .zero)) < $0 } ?? false
    guard isEarliest || closesEarlier else { return .none }
    // A waiting worker may be waiting for a later deadline: signal it to look again.
    if waitingWorkers > 0 { return Action(worker: .wakeWaiting, timer: .none) }
    return watchTimers(now: now, punctuality: punctuality, maySpin: maySpin)
  }

  /// Removes a disposed timer. The alarm is left armed; an early alarm finds nothing to do.
  mutating func removeTimer(_ timer: ScheduledTimer) {
    timers.remove(timer)
  }

  /// The alarm went off: fires due timers, hands ready work and an imminent timer to a worker, and
  /// re-arms for the next timer at once, even while a worker is active: the alarm thread is awake now,
  /// so arming costs no wake-up, whereas the worker arming it when it stops would wake the thread once
  /// more per timer.
  mutating func alarmFired(now: SchedulerInstant, punctuality: Punctuality, maySpin: Bool) -> Action {
    armed = nil
    fireDue(now: now)
    return watchTimers(now: now, punctuality: punctuality, maySpin: maySpin, alarmThreadAwake: true)
  }

  /// Moves every timer due at `now` to the ready queue in (deadline, sequence) order (repeating ones
  /// are re-armed on their grid first, with the same leeway and sequence; a repeating one whose
  /// previous run is still queued is not queued twice: the firings coalesce into that run).
  private mutating func fireDue(now: SchedulerInstant) {
    while let deadline = timers.firstDeadline, deadline <= now, let entry = timers.popFirst() {
      switch entry.payload {
      case .closure(let body):
        ready.append(.closure(body))
      case .timer(let timer):
        if timer.shouldQueueRun() { ready.append(.action(timer)) }
        if let next = timer.nextDeadline(after: now) {
          timers.insert(timer, deadline: next, leeway: entry.leeway, sequence: entry.sequence)
        }
      }
    }
  }

  /// Makes sure ready work and the earliest timer are watched: by a waiting worker (signalled), by a
  /// running worker (it fires due timers whenever it looks for work), by a newly claimed worker (when
  /// work is ready or a timer is already due, or, in low-latency mode, the earliest timer is within
  /// the window and a worker may spin for it), or by the alarm: the timers' firing window by default; a
  /// timer window early in low-latency mode.
  private mutating func watchTimers(
    now: SchedulerInstant, punctuality: Punctuality, maySpin: Bool, alarmThreadAwake: Bool = false
  ) -> Action {
    let first = timers.firstDeadline
    let imminent = first.map { punctuality.isImminent($0, now: now) } ?? false
    let due = first.map { $0 <= now } ?? false
    var worker = workersForReady()
    if worker.wake { return Action(worker: worker, timer: .none) }
    if ready.isEmpty && (due || (imminent && maySpin)) && startingWorkers == 0 {
      if waitingWorkers > 0 { return Action(worker: .wakeWaiting, timer: .none) }
      if claimWorker() {
        startingWorkers += 1
        worker = .startWorker
      }
    }
    // Any active worker watches the timers and re-arms when it stops; a concurrent scheduler with free
    // slots also keeps the alarm, so a timer need not wait for a long job to end; and the alarm thread
    // re-arms while it is awake anyway.
    // (In low-latency mode a timer already within the window has a worker on its way to spin for it.)
    guard let first, !due, waitingWorkers == 0, activeWorkers < width || (alarmThreadAwake && !imminent)
    else {
      return Action(worker: worker, timer: .none)
    }
    // An alarm closing by the first deadline closes by every window's end: no need to look further.
    if let armed, armed <= first { return Action(worker: worker, timer: .none) }
    let alarm = punctuality.alarm(first: first, imminent: imminent, firingWindow: timers.firingWindow)
    if let armed, armed <= alarm.latest { return Action(worker: worker, timer: .none) }
    armed = alarm.latest
    return Action(worker: worker, timer: .arm(earliest: alarm.earliest, latest: alarm.latest))
  }
}
