import AsyncSchedulers

/// The state of a ``TestScheduler``: its virtual clock, ready work and timers. Pure: each event
/// returns what to do (run a job, fire a timer, wake the blocked waiter, describe an escape); the
/// scheduler does it after releasing its lock. It builds no failure message: descriptions are copied
/// out as snapshots (``pendingSnapshot()``, ``runawaySnapshot()``) and written after the lock.
///
/// The queues it holds refer to timer objects, whose heap positions and grid it updates as they move
/// (see ``PendingWork``); it runs no user code.
package struct TestSchedulerStateMachine {
  package private(set) var now: SchedulerInstant
  /// Ready work and timers (the engine's ``PendingWork``).
  package private(set) var queues = PendingWork()
  /// Whether a driving call (`advance`, `run`, `step`) is running; they may not nest.
  package private(set) var isDriving = false
  /// Whether a thread is blocked waiting for work to arrive (a capturing scope's pump, or
  /// `TestScheduler.runUntil`): the next arrival says to wake it.
  package private(set) var waiterBlocked = false
  /// The most jobs one driving call runs at one instant before it stops and reports runaway work.
  let maximumJobsPerInstant: Int
  /// Jobs run at the current instant in the current driving call, by kind.
  private(set) var runAtInstant = JobCounts()
  /// The test's own code: the context that created the scheduler, and the one that drove it last.
  /// Outside a capturing scope, work handed over from either is not an escape.
  private let creator: ArrivalContext
  private var driver: ArrivalContext?
  /// Work that reached the scheduler from outside since the last report.
  package private(set) var escapes = EscapeLog()
  /// The `capturingAllTasks` scope routing global work here (`nil`: none); while one does, the scope's
  /// pump runs ready work and only code running on the scheduler may hand it work.
  private(set) var scope: (any CapturingScope)?
  /// The identifier of the capturing scope (0: none).
  package private(set) var capturingScope: UInt64 = 0
  package var isCapturing: Bool { capturingScope != 0 }

  /// The tasks sleeping with a plain `Task.sleep` on timers here, and the names of their sleeps.
  package private(set) var sleeps = SleepRegistry()

  /// Remembers the task sleeping on the timer with `key`.
  package mutating func rememberSleeper(_ task: SleepingTask, key: UInt64) { sleeps.remember(task, key: key) }

  /// Names the plain sleep `timer` stands for in failure messages.
  package mutating func labelSleep(_ timer: ScheduledTimer, _ label: String) { sleeps.label(timer, label) }

  /// Counts the sleep `timer` wakes as a task's wait for the stall watch (see `watchSleep(_:)`).
  mutating func watchSleepTimer(_ timer: ScheduledTimer) { sleeps.watch(timer) }

  /// Forgets the sleeper of a timer that fired; the caller releases it after the lock.
  package mutating func forgetSleeper(_ key: UInt64) -> SleepingTask? { sleeps.forget(key) }

  package init(now: SchedulerInstant, maximumJobsPerInstant: Int, creator: ArrivalContext) {
    self.now = now
    self.maximumJobsPerInstant = maximumJobsPerInstant
    self.creator = creator
  }

  /// Whether work arriving this way escaped the scheduler: it comes from outside the scheduler and is
  /// not the test's own code (the creating or driving context), or a capturing scope is active (then
  /// only code on the scheduler may hand it work).
  package func isEscape(_ arrival: Arrival) -> Bool {
    guard case .from(let context) = arrival else { return false }
    return isCapturing || (context != creator && context != driver)
  }

  /// Records one escape (stamped with the current instant), to be reported by the next driving call.
  /// `duringScope`: it arrived while a capturing scope ran (by default: whether one runs now).
  package mutating func recordEscape(what: String, origin: String, duringScope: Bool? = nil) {
    escapes.record(EscapeLog.Entry(what: what, origin: origin, at: now, duringScope: duringScope ?? isCapturing))
  }

  /// Takes the escapes recorded since the last report.
  package mutating func drainEscapes() -> EscapeLog? {
    escapes.isEmpty ? nil : escapes.drain()
  }

  /// Starts capturing for `scope`; the change says the instant it began at (the scope's clocks' virtual
  /// start, read in the same step).
  package mutating func beginCapturing(_ scope: any CapturingScope) -> ScopeChange {
    self.scope = scope
    capturingScope = scope.id
    return ScopeChange(wake: takeWaiter(), settled: [], start: now)
  }

  /// Ends the capturing scope (the caller releases the scope after the lock).
  package mutating func endCapturing() -> (ScopeChange, (any CapturingScope)?) {
    capturingScope = 0
    defer {
      settleWaiters = []
      scope = nil
    }
    return (ScopeChange(wake: takeWaiter(), settled: settleWaiters, start: now), scope)
  }

  /// The next step of the pump of capturing scope `scope`: ready work in FIFO order, never timers (only
  /// `advance`/`run` move time); it stops when its scope ends.
  package mutating func nextPumpStep(scope: UInt64) -> PumpStep {
    guard capturingScope == scope else { return .stop }
    if let work = takeReady() { return .run(work) }
    if !settleWaiters.isEmpty {
      defer { settleWaiters = [] }
      return .settled(settleWaiters)
    }
    waiterBlocked = true
    return .wait
  }

  /// The run's ordering choices and ready lanes when it explores orderings (`nil`: plain FIFO).
  package private(set) var exploration: ExplorationState?

  /// Makes this scheduler explore orderings with `explorer` (choices are made while
  /// ``setExploring(_:)`` says so).
  package mutating func explore(with explorer: OrderExplorer) {
    exploration = ExplorationState(explorer: explorer, alreadyQueued: queues.readyCount)
  }

  /// Starts making ordering choices (the scope's body runs on the scheduler), or stops (it returned).
  package mutating func setExploring(_ active: Bool) { exploration?.setActive(active) }

  /// Whether timers due at one instant all fire before any ready job runs (exploring orderings: their
  /// wake-ups are then ready together and permuted).
  package var firesDueTimersTogether: Bool { exploration?.isActive ?? false }

  /// Removes the next ready job: the first, or the one the explorer chooses.
  private mutating func takeReady() -> Work? {
    guard queues.readyCount > 0 else { return nil }
    guard exploration != nil else { return queues.popReady() }
    let offset = exploration!.takeNext(now: now)
    return offset == 0 ? queues.popReady() : queues.removeReady(at: offset)
  }

  /// Callers of `TestScheduler.settle()` waiting for the scope to have nothing ready.
  private var settleWaiters: [CheckedContinuation<Void, Never>] = []

  /// Registers a caller of `settle()`; returns whether a blocked pump must be woken to see it, or
  /// `nil` when no scope captures (the caller returns at once).
  package mutating func addSettleWaiter(_ continuation: CheckedContinuation<Void, Never>) -> Bool? {
    guard isCapturing else { return nil }
    settleWaiters.append(continuation)
    return takeWaiter()
  }

  /// Takes the ready jobs of tasks out of the FIFO (captured global jobs, jobs of tasks preferring the
  /// scheduler, main-actor jobs of the scope), leaving callbacks and actor jobs in order: at the end of
  /// a capturing scope nothing would drive them, so they go back to the runtime's executors.
  package mutating func takeTaskJobs() -> (global: [UnownedJob], main: [UnownedJob]) {
    var global: [UnownedJob] = []
    var main: [UnownedJob] = []
    var taken: [Bool] = []
    _ = queues.removeReady { work in
      switch work {
      case .taskJob(let job): global.append(job)
      case .runnable(let job as MainActorJob): main.append(job.job)
      default:
        taken.append(false)
        return false
      }
      taken.append(true)
      return true
    }
    exploration?.removeTaken(taken)
    return (global, main)
  }

  /// Clears the waiter flag after a timed-out wait.
  package mutating func stopWaiting() { waiterBlocked = false }

  /// A thread that drives the scheduler (`runUntil`) is about to block until work arrives: when
  /// nothing but timers is pending, registers it as the waiter and returns `true`; else `false` (run
  /// what is ready first).
  package mutating func blockUntilWorkArrives() -> Bool {
    guard queues.readyCount == 0 else { return false }
    waiterBlocked = true
    return true
  }

  /// A driving call (`advance`, `run`, `step`, `runUntil`) wants to start, from the scope's pump
  /// (`onPump`) or from `context`; a call that does not count `byTest` (the stall watch's) leaves the
  /// scheduler "never driven".
  package mutating func beginDrivingCall(onPump: Bool, from context: ArrivalContext?, byTest: Bool) -> DriveAdmission {
    if isDriving { return .nested }
    if isCapturing && !onPump { return .outsideScope }
    isDriving = true
    beginDriving(from: context, byTest: byTest)
    return .drive
  }

  /// The driving call ended.
  package mutating func endDrivingCall() { isDriving = false }

  /// Whether the current driving call refused to run more work at the current instant: it had run
  /// ``maximumJobsPerInstant`` jobs there and more were due.
  package private(set) var isRunaway = false

  private var isExhausted: Bool { runAtInstant.total >= maximumJobsPerInstant }

  /// How many driving calls have started (a stall watch compares it before and after).
  package private(set) var driveGeneration: UInt64 = 0
  /// Whether a stall watch is waiting (see `TestSchedulerStateMachine+StallWatch.swift`).
  var isStallWatchArmed = false
  /// Whether the stall watch has found a stall (it then arms again after running the stalled work, and
  /// counts pending timers as stalled too).
  var hasStalled = false

  /// Starts counting jobs for a new driving call made from `context`, which becomes the test's own;
  /// a call not `byTest` (the stall watch's) leaves the scheduler "never driven", so the watch re-arms.
  package mutating func beginDriving(from context: ArrivalContext? = nil, byTest: Bool = true) {
    if byTest {
      driveGeneration &+= 1
      sleeps.stopWatching()
    }
    runAtInstant = JobCounts()
    isRunaway = false
    if let context { driver = context }
  }

  package var pendingCount: Int { queues.readyCount + queues.timerCount }
  var nextDeadline: SchedulerInstant? { queues.readyCount == 0 ? queues.firstTimer?.deadline : now }

  /// Queues ready work that arrived as `arrival`, with its exploration `lane` (read before the lock;
  /// `nil` when not exploring). When it escapes, it is queued only with `escape` (what it is and where
  /// it came from), which is then recorded in the same step, so the driving call that runs the work also
  /// reports it; an `escape` given for work that no longer escapes (the scheduler changed meanwhile) is
  /// dropped.
  package mutating func enqueue(
    _ work: Work, lane: OrderExplorer.Tag?, _ arrival: Arrival = .onScheduler,
    escape: (what: String, origin: String)? = nil
  ) -> Admission {
    let escaped = isEscape(arrival)
    if escaped && escape == nil { return .describeEscape }
    queues.appendReady(work)
    exploration?.queued(lane)
    if escaped, let escape { recordEscape(what: escape.what, origin: escape.origin) }
    return .queued(wake: takeWaiter(), escaped: escaped)
  }

  /// Adds a timer due at `deadline` that arrived as `arrival`; an escape as for ``enqueue(_:_:escape:)``.
  package mutating func addTimer(
    _ timer: ScheduledTimer, at deadline: SchedulerInstant, _ arrival: Arrival = .onScheduler,
    escape: (what: String, origin: String)? = nil
  ) -> Admission {
    let escaped = isEscape(arrival)
    if escaped && escape == nil { return .describeEscape }
    queues.addTimer(timer, at: deadline)
    if escaped, let escape { recordEscape(what: escape.what, origin: escape.origin) }
    return .queued(wake: takeWaiter(), escaped: escaped)
  }

  /// Takes the blocked waiter (to wake it): whether one was blocked.
  package mutating func takeBlockedWaiter() -> Bool { takeWaiter() }

  private mutating func takeWaiter() -> Bool {
    defer { waiterBlocked = false }
    return waiterBlocked
  }

  package mutating func removeTimer(_ timer: ScheduledTimer) {
    queues.removeTimer(timer)
    sleeps.timerLeft(timer)
  }

  /// Pops the first ready job, unless the current call has run too many jobs at this instant.
  package mutating func popReady() -> Work? {
    guard !isRunaway, queues.readyCount > 0 else { return nil }
    if isExhausted {
      isRunaway = true
      return nil
    }
    guard let work = takeReady() else { return nil }
    runAtInstant.count(work)
    return work
  }

  /// Whether a timer is pending that can fire (one due before ``SchedulerInstant/distantFuture``).
  package var hasFiringTimer: Bool { queues.firstTimer.map { $0.deadline < .distantFuture } ?? false }

  /// Pops the earliest timer due at or before `limit`, moving the clock to its deadline (never
  /// backwards); a repeating timer is re-armed on its grid first, keeping its sequence number.
  ///
  /// A timer due at ``SchedulerInstant/distantFuture`` never fires (the "Bad input" article's rows: it
  /// stays pending until disposed, and a sleep until then lasts until its task is cancelled), whatever
  /// `limit` is; so `run()` and `step()` never move the clock there.
  package mutating func popTimer(dueBy limit: SchedulerInstant) -> ScheduledTimer? {
    // Virtual time fires every timer at its deadline exactly: leeway never moves it.
    guard !isRunaway, let first = queues.firstTimer, first.deadline <= limit, first.deadline < .distantFuture,
      let timer = first.timer
    else { return nil }
    if first.deadline <= now && isExhausted {
      isRunaway = true
      return nil
    }
    if first.deadline > now {
      now = first.deadline
      runAtInstant = JobCounts()
    }
    queues.popFirstTimer(firingAt: now)
    runAtInstant.timers += 1
    sleeps.timerLeft(timer)
    return timer
  }

  /// Moves the clock forward to `instant` (never backwards).
  package mutating func move(to instant: SchedulerInstant) {
    if instant > now {
      now = instant
      runAtInstant = JobCounts()
    }
  }
}
