import AsyncSchedulers
import Dispatch
import Synchronization

/// A deterministic virtual-time scheduler: the executor *and* the clock of the code under test.
///
/// Tasks started with `Task(executorPreference: scheduler)`, actors whose executor it is, and what they
/// spawn (`async let`, task-group children) run only when the test drives the scheduler, on the test's
/// thread, one job at a time. Sleeping on it (`scheduler.sleep(for:)`,
/// ``/AsyncSchedulers/Scheduler/ticks(every:leeway:startingAt:)``) registers a timer in its heap;
/// callback work (`schedule`, timers) shares the same timeline. Nothing happens in the background: no
/// `Task.yield()` loops, no real-time sleeps, no polling.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let task = Task(executorPreference: scheduler) {
///   try await scheduler.sleep(for: .seconds(1))
///   return "done"
/// }
/// scheduler.advance(by: .seconds(1))   // runs the task to completion, synchronously
/// ```
///
/// ## Semantics
/// - Driving calls (``advance(by:fileID:filePath:line:column:)``,
///   ``advance(to:fileID:filePath:line:column:)``, ``run(maximumSteps:fileID:filePath:line:column:)``,
///   ``step(fileID:filePath:line:column:)``) first run the ready work, then fire timers in (deadline,
///   scheduling order); `now` is set to each timer's deadline while it and the work it wakes run. Work
///   created meanwhile that is due by the target runs in the same call. The clock ends exactly at the
///   target.
/// - A timer or sleep due at ``/AsyncSchedulers/SchedulerInstant/distantFuture`` (where every huge delay
///   saturates) never fires: no driving call, not even `run()` or `step()`, moves the clock there. It stays
///   pending until disposed, and a sleep until then lasts until its task is cancelled.
/// - Dropping the scheduler frees it and its pending timers (with what their closures captured): pending
///   work does not keep a test scheduler alive, since nothing would ever drive it.
/// - Equal deadlines run in the order they were scheduled; a repeating timer keeps its original place
///   among equal deadlines and re-arms from its scheduled time (no drift).
/// - Time never moves backwards: advancing to the past fails the test and changes nothing.
/// - `sleep(until:)` with a deadline that is not in the future returns at once, without waiting for the
///   next advance (like `ContinuousClock` and a suspending `Task.sleep`).
/// - Driving calls may not nest (a job must not call `advance`); a nested call fails the test and returns.
/// - Driving calls never hang on runaway work: one that runs ``maximumJobsPerInstant`` jobs without the
///   clock moving (a callback rescheduling itself at once, a polling loop) stops and fails the test,
///   naming the kinds of work that ran; the rest stays pending.
///
/// ## Staying deterministic
/// Keep all code under test on this scheduler: start tasks with `executorPreference: scheduler`, bind
/// actors to it, take time from it (a plain `Task.sleep` in a task on it is virtual too). Work that
/// escapes to another executor (a bare `Task {}`, a `Task.detached`, a continuation resumed by another
/// thread) runs at the mercy of the real machine: when it comes back is not decided by the scheduler. Wait for it with
/// ``runUntil(timeout:_:fileID:filePath:line:column:)``, which blocks on the arrival of work with a
/// real-time bound, never a fixed sleep. Do not `await` work bound to the scheduler from the test itself
/// without driving it: the test's own task would wait for a `run()` that never comes.
public final class TestScheduler: Scheduler, SerialExecutor, RunnableJobSubmitting, Sendable {
  /// A name for failure messages.
  public let name: String
  /// The scheduler of the running test under the `.virtualTime` trait (and of code the test's tasks
  /// run); `nil` outside such a test. A task-local: tasks the test starts inherit it.
  @TaskLocal public static var current: TestScheduler?
  let state: Mutex<TestSchedulerStateMachine>
  let wakeup = DispatchSemaphore(value: 0)
  /// When tasks' recent jobs started, in real time (see `noteJobStart(_:)`).
  let jobStarts = TaskJobStarts()
  /// How many failures this scheduler has reported (a run exploring orderings failed when it rose).
  let issuesReported = Atomic<Int>(0)
  /// The background tasks of the running capturing scope (`nil` when none runs); see
  /// ``backgroundTask(fileID:filePath:line:column:_:)``.
  let backgroundTasks = Mutex<[Task<Void, Never>]?>(nil)
  /// The executor actors bound to this scheduler use.
  private let serialExecutor = TestSchedulerSerialExecutor()
  /// The executor the main actor of a capturing scope's code runs on (made by the first scope).
  private let mainExecutorReference = AtomicLazyReference<TestSchedulerMainExecutor>()
  /// The executor the main actor of a capturing scope's code runs on.
  var mainExecutor: TestSchedulerMainExecutor {
    if let executor = mainExecutorReference.load() { return executor }
    let made = TestSchedulerMainExecutor.makeImmortal(for: self)
    let executor = mainExecutorReference.storeIfNil(made)
    if executor !== made { made.detach() }  // Another thread made one first: this one is never used.
    return executor
  }
  /// What this scheduler's timers point back to (weakly, so pending timers do not keep it alive).
  let timerOwner = TestSchedulerTimerOwner()
  /// How many jobs of a main-actor stand-in run now (see ``TestSchedulerMainStandIn``).
  let mainStandInRunning = TestSchedulerMainStandIn.RunningCount()
  /// The context of the Swift Testing test that created the scheduler, for failures found on a thread
  /// outside it (`nil` outside Swift Testing and inside a capturing scope).
  let owningTest: OwningTestRelay?

  /// Creates a scheduler whose virtual clock starts at `now` (by default
  /// ``/AsyncSchedulers/SchedulerInstant/zero``).
  ///
  /// `maximumJobsPerInstant` bounds runaway work: a driving call that runs that many jobs (callbacks,
  /// task and actor jobs, timers) without the clock moving stops, fails the test with a message naming
  /// the kinds of work that ran and listing what is pending, and leaves the rest pending.
  ///
  /// `stallTimeout` bounds how long a task may wait, in real time, for a task or actor job parked here
  /// while nothing has ever driven the scheduler (outside a capturing scope): then the scheduler fails
  /// the test with a message naming the two fixes and runs the ready work, so the test ends instead of
  /// hanging. Once the test has driven the scheduler, work it leaves pending is its own choice
  /// (``expectNoPendingWork(fileID:filePath:line:column:)`` reports it).
  /// - Precondition: `maximumJobsPerInstant >= 1`.
  ///
  /// The source location (by default, the caller's) is where failures the scheduler finds on its own
  /// (a stall nothing drives) are reported.
  public convenience init(
    name: String = "TestScheduler", now: SchedulerInstant = .zero, maximumJobsPerInstant: Int = 100_000,
    stallTimeout: Duration = .seconds(10),
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) {
    self.init(
      name: name, now: now, maximumJobsPerInstant: maximumJobsPerInstant, stallTimeout: stallTimeout,
      acceptsCallbacksFromAnyThread: false,
      creation: SourcePlace(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Creates a scheduler; with `acceptsCallbacksFromAnyThread`, callback work (callbacks, timers,
  /// bridged blocks) handed over from any thread simply waits for the next driving call and is never
  /// reported as an escape: ReactiveObjC's `RACTestScheduler` semantics, where blocks scheduled from a
  /// background scheduler wait for `step` (task and actor jobs are still checked).
  package init(
    name: String, now: SchedulerInstant, maximumJobsPerInstant: Int, stallTimeout: Duration,
    acceptsCallbacksFromAnyThread: Bool,
    creation: SourcePlace = SourcePlace(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
  ) {
    self.creation = creation
    checkArgument(
      maximumJobsPerInstant >= 1,
      "TestScheduler: maximumJobsPerInstant must be at least 1 (got \(maximumJobsPerInstant))")
    self.name = name
    self.stallTimeout = max(stallTimeout, .zero)
    self.acceptsCallbacksFromAnyThread = acceptsCallbacksFromAnyThread
    self.state = Mutex(
      TestSchedulerStateMachine(now: now, maximumJobsPerInstant: maximumJobsPerInstant, creator: .current))
    owningTest = OwningTestRelay.forCallingTest()
    serialExecutor.scheduler = self
    timerOwner.attach(self)
  }

  deinit {
    timerOwner.detach()
    mainExecutorReference.load()?.detach()
  }

  /// Where the scheduler was created: where failures it finds on its own are reported.
  let creation: SourcePlace

  /// Whether callback work from any thread is accepted without an escape report (RACTestScheduler).
  let acceptsCallbacksFromAnyThread: Bool

  /// How long a task may wait for a job parked here while nothing has ever driven the scheduler
  /// (outside a capturing scope) before the scheduler reports the stall and runs the ready work.
  public let stallTimeout: Duration

  /// The most jobs one driving call runs at one instant before it stops and reports runaway work.
  public var maximumJobsPerInstant: Int { state.withCriticalRegion { $0.maximumJobsPerInstant } }

  // MARK: Clock

  /// The virtual current instant. During a driving call it is the deadline of the timer being run.
  public var now: SchedulerInstant { state.withCriticalRegion { $0.now } }

  // MARK: Callback API

  /// Queues `action`; it runs at the current virtual time on the next driving call, before any timer
  /// (RACTestScheduler's `schedule:` order), first in first out.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction {
    let scheduled = ScheduledAction(action)
    enqueue(work: .action(scheduled), escaping: "a callback (schedule)")
    return scheduled
  }

  /// Queues `action` like ``schedule(_:)``, without a handle.
  public func execute(_ action: @escaping @Sendable () -> Void) {
    enqueue(work: .closure(action), escaping: "a callback (execute)")
  }

  /// Queues a bridge job like ``schedule(_:)``.
  @usableFromInline package func submit(runnable job: consuming any RunnableJob) {
    enqueue(work: .runnable(job), escaping: "a bridged block (RACScheduler)")
  }

  /// Adds a timer at `deadline`; `leeway` is ignored (virtual timers are exact).
  @discardableResult
  public func schedule(
    at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    addTimer(ScheduledTimer(owner: timerOwner, action), at: deadline, describing: "a timer or sleep due at \(deadline)")
  }

  /// Adds a repeating timer at `start + interval × k`; `leeway` is ignored.
  /// - Precondition: `interval > .zero`, `leeway >= .zero`.
  @discardableResult
  public func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration = .zero,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    preconditionValidRepeating(interval: interval, leeway: leeway)
    return addTimer(
      RepeatingTimer(owner: timerOwner, start: start, interval: interval, action), at: start,
      describing: "a repeating timer every \(interval) starting at \(start)")
  }

  /// Adds the wake-up timer of a plain `Task.sleep` at the virtual `deadline` (at once when it has
  /// passed), remembering its sleeping task under `key`.
  func addSleepTimer(_ timer: ScheduledTimer, at deadline: SchedulerInstant, sleeper: SleepingTask?, key: UInt64) {
    let arrival = Self.arrival(for: self)
    let label = Self.currentTaskName().map { "plain sleep of task '\($0)'" }
    let admission = handOver(describing: "a plain sleep due at \(deadline)") { state, escape in
      if let sleeper { state.rememberSleeper(sleeper, key: key) }
      if let label { state.labelSleep(timer, label) }
      return state.addTimer(timer, at: deadline, arrival, escape: escape)
    }
    if admission?.wake == true { wakeup.signal() }
  }

  /// The calling task's name (SE-0469, `Task(name:)`), which failure messages show for its pending
  /// sleeps; `nil` for an unnamed task (most: their sleeps cost no label).
  private static func currentTaskName() -> String? {
    if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) { return Task.name }
    return nil
  }

  /// Adds `timer`; `what` names it in an escape report.
  private func addTimer(
    _ timer: ScheduledTimer, at deadline: SchedulerInstant, describing what: @autoclosure () -> String
  )
    -> ScheduledAction
  {
    let arrival = acceptsCallbacksFromAnyThread ? .onScheduler : Self.arrival(for: self)
    let admission = handOver(describing: what()) { state, escape in
      state.addTimer(timer, at: deadline, arrival, escape: escape)
    }
    if admission?.wake == true { wakeup.signal() }
    return timer
  }

  /// Removes a disposed timer at once (through ``TestSchedulerTimerOwner``).
  func cancelTimer(_ action: ScheduledTimer) {
    state.withCriticalRegion { $0.removeTimer(action) }
  }

  // MARK: Executors

  /// Queues a job of a task that prefers this scheduler; it runs on the next driving call.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if isCapturing, ActiveScopes.shared.mainActorJob(job, belongsTo: self) {
      let wake = state.withCriticalRegion { $0.enqueue(.taskJob(job), .captured).wake }
      if wake { wakeup.signal() }
      return
    }
    enqueue(work: .taskJob(job), escaping: "a task or actor job", isJob: true)
  }

  /// Queues a job of an actor bound to this scheduler; it runs, isolated, on the next driving call.
  func enqueueIsolated(_ job: UnownedJob) {
    enqueue(work: .job(job), escaping: "a task or actor job", isJob: true)
  }

  /// Queues a main-actor job of a capturing scope's code; returns `false` (queuing nothing) once the
  /// scope has ended: the caller hands the job to the real main actor instead.
  ///
  /// A job of a task of the scope is never an escape, whoever enqueues it (a continuation resumed by a
  /// Dispatch callback): it is outside work arriving, and runs at the current virtual instant. A task
  /// the scope's code starts on the main actor joins the scope here (see ``ActiveScopes``).
  func enqueueMainActor(_ job: UnownedJob) -> Bool {
    let ownTask = ActiveScopes.shared.mainActorJob(job, belongsTo: self)
    let arrival = ownTask ? .captured : Self.arrival(for: self)
    let work = Work.runnable(MainActorJob(job, scheduler: self))
    let admission = handOver(describing: "a main-actor job", hopping: true) { state, escape in
      guard state.isCapturing else { return nil }
      return state.enqueue(work, arrival, escape: escape)
    }
    guard let admission else { return false }
    if admission.wake { wakeup.signal() }
    return true
  }

  /// Queues `work`; when it escapes, what it was and where it came from are recorded in the same
  /// critical region that queues it, so the driving call that runs it also reports it. With
  /// `onlyWhileCapturing`, queues nothing unless a capturing scope is active (checked in the same
  /// critical region) and returns whether it queued.
  @discardableResult
  private func enqueue(
    work: Work, escaping what: @autoclosure () -> String, isJob: Bool = false, onlyWhileCapturing: Bool = false
  ) -> Bool {
    let arrival = !isJob && acceptsCallbacksFromAnyThread ? .onScheduler : Self.arrival(for: self)
    var watch = false
    let admission = handOver(describing: what(), hopping: isJob) { state, escape in
      if onlyWhileCapturing && !state.isCapturing { return nil }
      let admission = state.enqueue(work, arrival, escape: escape)
      if case .queued = admission { watch = isJob && arrival != .onScheduler && state.armStallWatch() }
      return admission
    }
    guard let admission else { return false }
    if admission.wake { wakeup.signal() }
    if watch { startStallWatch() }
    return true
  }

  /// Hands work over with `admit`, under the lock. When the state machine answers that the work
  /// escapes, the escape is described after the lock is released (what it is, and where it came from:
  /// the current task and the thread's name, read outside the lock) and the work is handed over again
  /// with the description, in a second critical region that re-checks. Returns the admission, or `nil`
  /// when `admit` refused the work.
  @inline(__always)
  private func handOver(
    describing what: @autoclosure () -> String, hopping: Bool = false,
    _ admit: (inout TestSchedulerStateMachine, (what: String, origin: String)?) -> TestSchedulerStateMachine.Admission?
  ) -> TestSchedulerStateMachine.Admission? {
    let first = state.withCriticalRegion { admit(&$0, nil) }
    guard case .describeEscape? = first else { return first }
    let escape = (what: what(), origin: ArrivalContext.describeCurrent(hopping: hopping))
    return state.withCriticalRegion { admit(&$0, escape) }
  }

  /// How work handed over by the calling code arrives: from the scheduler itself when it runs one of
  /// its jobs (or a capturing scope's pump) on this thread, from the calling context otherwise.
  @inline(__always)
  private static func arrival(for scheduler: TestScheduler) -> TestSchedulerStateMachine.Arrival {
    CurrentSchedulerSlot.isCurrent(scheduler) ? .onScheduler : .from(.current)
  }

  /// Records that `what` escaped, with where it came from; the next driving call reports it.
  func recordEscape(_ what: String, origin: String) {
    state.withCriticalRegion { $0.recordEscape(what: what, origin: origin) }
  }

  /// The serial executor for actors bound to this scheduler.
  public func asUnownedSerialExecutor() -> UnownedSerialExecutor { serialExecutor.asUnownedSerialExecutor() }

  /// The serial executor for actors bound to this scheduler (same as ``asUnownedSerialExecutor()``).
  public var unownedSerialExecutor: UnownedSerialExecutor { asUnownedSerialExecutor() }

  /// Whether the calling code runs inside one of this scheduler's jobs.
  public func isIsolatingCurrentContext() -> Bool? { CurrentSchedulerSlot.isCurrent(self) }

  /// Stops the program unless the calling code runs inside one of this scheduler's jobs.
  public func checkIsolated() {
    checkArgument(CurrentSchedulerSlot.isCurrent(self), "Expected to run on TestScheduler '\(name)'")
  }

  // MARK: Inspection

  /// The number of ready jobs plus pending timers (including sleeping tasks).
  public var pendingCount: Int { state.withCriticalRegion { $0.pendingCount } }

  /// When the next work is due: `now` if work is ready, the earliest timer's deadline otherwise, `nil`
  /// when nothing is pending.
  public var nextDeadline: SchedulerInstant? { state.withCriticalRegion { $0.nextDeadline } }

  /// How many pieces of work escaped to this scheduler since it was created (for tests of the rule).
  var escapeTotal: Int { state.withCriticalRegion { $0.escapes.total } }

  /// A readable list of what is pending.
  public var pendingDescription: String { pendingSnapshot().describe(name: name) }

  /// Fails the current test, listing what is pending, when any work remains.
  public func expectNoPendingWork(
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) {
    expectNoPendingWork(atEndOfTest: false, fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Fails the test when work remains; at the end of a `.virtualTime` test, the message says what the
  /// pending sleeps mean (tasks the test started, still alive) and how to end them.
  func expectNoPendingWork(atEndOfTest: Bool, fileID: String, filePath: String, line: Int, column: Int) {
    reportEscapes(fileID: fileID, filePath: filePath, line: line, column: column)
    let pending = pendingSnapshot()
    guard pending.liveCount > 0 else { return }
    let hint =
      atEndOfTest
      ? "\nTasks the test started are still alive (each plain sleep below is one): cancel or await them before "
        + "the test ends, or start them with TestScheduler.current!.backgroundTask { … }, which cancels and awaits "
        + "them when the test's body returns."
      : ""
    report(
      "Expected no pending work.\(hint)\n\(pending.describe(name: name))", fileID: fileID, filePath: filePath,
      line: line,
      column: column)
  }

  // MARK: Driving

  /// Runs everything due within the next `duration`, then sets the clock to `now + duration`.
  /// - Precondition: `duration >= .zero` (a negative duration fails the test and changes nothing).
  public func advance(
    by duration: Duration = .zero,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) {
    guard duration >= .zero else {
      // Checked here, not only by `advance(to:)`: at a clock saturated at `.distantPast` the target
      // would equal the present, and the negative duration would pass unreported.
      report(
        "TestScheduler '\(name)' cannot move back in time: advance(by:) got a negative duration (\(duration)).",
        fileID: fileID, filePath: filePath, line: line, column: column)
      return
    }
    advance(to: now.advanced(by: duration), fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Runs everything due at or before `target`, in order, then sets the clock to `target`.
  ///
  /// A `target` in the past fails the test and changes nothing.
  public func advance(
    to target: SchedulerInstant,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) {
    let current = now
    guard target >= current else {
      report(
        "TestScheduler '\(name)' cannot move back in time, from \(current) to \(target).",
        fileID: fileID, filePath: filePath, line: line, column: column)
      return
    }
    drive(fileID: fileID, filePath: filePath, line: line, column: column) {
      while true {
        runReady()
        guard let timer = state.withCriticalRegion({ $0.popTimer(dueBy: target) }) else { break }
        fire(timer)
      }
      // Stopped by runaway work: the clock stays where the work ran away.
      if state.withCriticalRegion({ $0.isRunaway }) { return true }
      state.withCriticalRegion { $0.move(to: target) }
      runReady()
      return true
    }
  }

  /// Runs until nothing is pending but timers at `.distantFuture` (which never fire), moving the clock
  /// to each deadline; stops with a failure listing the
  /// pending work after `maximumSteps` timers (an endless repeating timer never hangs it), or after
  /// ``maximumJobsPerInstant`` jobs at one instant (work rescheduling itself never hangs it). When it
  /// stops early, the clock stays at the last timer it ran and the remaining work stays pending. A
  /// negative `maximumSteps` counts as zero.
  public func run(
    maximumSteps: Int = 1_000_000,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) {
    drive(fileID: fileID, filePath: filePath, line: line, column: column) {
      var steps = 0
      while true {
        runReady()
        if steps >= maximumSteps && state.withCriticalRegion({ $0.hasFiringTimer }) {
          report(
            "TestScheduler.run() stopped after \(max(maximumSteps, 0)) timers: work keeps scheduling more work "
              + "(an endless repeating timer?). Use advance(by:) for endless timers.\n"
              + pendingDescription, fileID: fileID, filePath: filePath, line: line, column: column)
          return false
        }
        guard let timer = state.withCriticalRegion({ $0.popTimer(dueBy: .distantFuture) }) else { return true }
        steps += 1
        fire(timer)
      }
    }
  }

  /// Runs the next piece of work: the first ready job, or else the earliest timer (moving the clock to
  /// its deadline; a timer at `.distantFuture` never fires). Disposed callbacks are skipped, not counted. Returns whether anything ran
  /// (RACTestScheduler `step`).
  @discardableResult
  public func step(
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) -> Bool {
    drive(fileID: fileID, filePath: filePath, line: line, column: column) {
      while let work = state.withCriticalRegion({ $0.popReady() }) {
        if Self.isCancelled(work) { continue }
        runJob(work)
        return true
      }
      guard let timer = state.withCriticalRegion({ $0.popTimer(dueBy: .distantFuture) }) else { return false }
      runJob(.action(timer))
      return true
    }
  }

  /// Runs the next `count` pieces of work (RACTestScheduler `step:`); stops early when none is left.
  public func step(_ count: Int, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line) {
    for _ in 0..<max(count, 0) where step(fileID: fileID, filePath: filePath, line: line) == false { break }
  }

  /// Runs everything (RACTestScheduler `stepAll`); the same as
  /// ``run(maximumSteps:fileID:filePath:line:column:)``.
  public func stepAll(fileID: String = #fileID, filePath: String = #filePath, line: Int = #line) {
    run(fileID: fileID, filePath: filePath, line: line)
  }

  /// Runs ready work, and while `condition` is false waits (blocking, up to `timeout` of real time)
  /// for more work to arrive from elsewhere, running it as it comes. Returns whether `condition` became
  /// true; on timeout it fails the test with the pending work listed.
  ///
  /// Use it for work that escapes the scheduler and comes back from another thread; for example
  /// `runUntil { scheduler.pendingCount > 0 }` waits until an escaped task has registered its sleep.
  /// The clock does not move. A negative timeout counts as zero; a huge one (`.seconds(Int64.max)`) waits
  /// as long as it takes.
  @discardableResult
  public func runUntil(
    timeout: Duration = .seconds(10), _ condition: () -> Bool,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) -> Bool {
    let deadline = SchedulerInstant.uptimeNow.advanced(by: max(timeout, .zero)).dispatchTime
    while true {
      let ran = drive(fileID: fileID, filePath: filePath, line: line, column: column) {
        runReady()
        return true
      }
      if !ran { return false }
      if condition() { return true }
      let wait = state.withCriticalRegion { $0.blockUntilWorkArrives() }
      if wait && wakeup.wait(timeout: deadline) == .timedOut {
        state.withCriticalRegion { $0.stopWaiting() }
        if condition() { return true }
        report(
          "TestScheduler.runUntil timed out after \(timeout).\n\(pendingDescription)",
          fileID: fileID, filePath: filePath, line: line, column: column)
        return false
      }
    }
  }

  /// Runs `body` as one driving call: not nested in another, with this scheduler as the current one,
  /// and with runaway work reported (then it returns `false`).
  @discardableResult
  private func drive(
    countsAsTestDrive: Bool = true, fileID: String, filePath: String, line: Int, column: Int, _ body: () -> Bool
  ) -> Bool {
    let onPump = CurrentSchedulerSlot.isCurrent(self)
    let context = ArrivalContext.current
    let admission = state.withCriticalRegion {
      $0.beginDrivingCall(onPump: onPump, from: countsAsTestDrive ? context : nil, byTest: countsAsTestDrive)
    }
    switch admission {
    case .nested:
      report(
        "TestScheduler '\(name)' is already being driven: advance, run and step cannot be called from "
          + "work the scheduler is running.", fileID: fileID, filePath: filePath, line: line, column: column)
      return false
    case .outsideScope:
      reportEscapes(fileID: fileID, filePath: filePath, line: line, column: column)
      report(
        "TestScheduler '\(name)' is capturing all tasks: drive it from the body of capturingAllTasks, not "
          + "from code running outside the scope (it may have escaped the scope: a Task.sleep, or a "
          + "continuation resumed by another thread).", fileID: fileID, filePath: filePath, line: line,
        column: column)
      return false
    case .drive:
      break
    }
    defer { state.withCriticalRegion { $0.endDrivingCall() } }
    reportEscapes(fileID: fileID, filePath: filePath, line: line, column: column)
    let result = Schedulers.withCurrent(self) { body() }
    reportEscapes(fileID: fileID, filePath: filePath, line: line, column: column)
    if let runaway = state.withCriticalRegion({ $0.runawaySnapshot() }) {
      report(runaway.describe(name: name), fileID: fileID, filePath: filePath, line: line, column: column)
      return false
    }
    return result
  }

  /// Fails the test with the escapes recorded since the last report, if any.
  func reportEscapes(fileID: String, filePath: String, line: Int, column: Int) {
    guard let escapes = state.withCriticalRegion({ $0.drainEscapes() }) else { return }
    report(escapes.describe(name: name), fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Runs what is pending after a stall report (the stall watch's way to unblock a waiting task): the
  /// ready work, then the timers in order (at most 100,000), as a driving call that does not count as
  /// the test's, so the watch arms again when more work is parked.
  func runStalledWork() {
    drive(countsAsTestDrive: false, fileID: #fileID, filePath: #filePath, line: #line, column: #column) {
      for _ in 0..<100_000 {
        runReady()
        guard let timer = state.withCriticalRegion({ $0.popTimer(dueBy: .distantFuture) }) else { break }
        fire(timer)
      }
      return true
    }
  }

  private func runReady() {
    while let work = state.withCriticalRegion({ $0.popReady() }) { runJob(work) }
  }

  private static func isCancelled(_ work: Work) -> Bool {
    switch work {
    case .action(let action): action.isDisposed
    case .runnable(let job): job.isJobCancelled
    case .closure, .job, .taskJob: false
    }
  }

  /// Fails the running test with `message` (see `reportIssue`), counting it. Called from a thread
  /// outside every Swift Testing test (a Dispatch timer's), it fails the test that created the
  /// scheduler instead (see ``inOwningTest(_:)``).
  func report(_ message: String, fileID: String, filePath: String, line: Int, column: Int) {
    issuesReported.add(1, ordering: .relaxed)
    inOwningTest { reportIssue(message, fileID: fileID, filePath: filePath, line: line, column: column) }
  }

  /// Runs `work` now when the calling code runs in a test's context (or no test created the
  /// scheduler); else in the context of the Swift Testing test that created it, on that test's relay
  /// task, after the work posted before it.
  func inOwningTest(_ work: @escaping @Sendable () -> Void) {
    if OwningTestRelay.callerHasTestContext || owningTest?.post(work) != true { work() }
  }

  /// Runs `timer`; when exploring orderings, then every other timer due at the same instant, so the
  /// wake-ups they cause are ready together.
  func fire(_ timer: ScheduledTimer) {
    runJob(.action(timer))
    while let next = state.withCriticalRegion({ $0.firesDueTimersTogether ? $0.popTimer(dueBy: $0.now) : nil }) {
      runJob(.action(next))
    }
  }

  func runJob(_ work: Work) {
    let task = noteJobStart(work)
    defer { if let task { jobStarts.noteEnd(ofJobAt: task) } }
    // Actor jobs run isolated to the serial face *and* preferring this scheduler, so nonisolated code
    // they call stays here; jobs of tasks preferring it (or captured from the global executor) run
    // nonisolated, so nonisolated code needs no hop (and a captured task's next hop goes back through
    // the global executor and the capturing hook).
    WorkRunner(
      serial: asUnownedSerialExecutor(), taskExecutor: UnownedTaskExecutor(ordinary: self),
      actorJobs: .preferringTaskExecutor, isolatesTaskJobs: false
    ).run(work)
  }
}
extension TestScheduler: ActorScheduler {}
extension TestScheduler: VirtualTimeline {}

/// A source location, for failures reported away from the code that caused them.
package struct SourcePlace: Sendable {
  let fileID: String
  let filePath: String
  let line: Int
  let column: Int

  /// The location `fileID`:`line`.
  package init(fileID: String, filePath: String, line: Int, column: Int) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }
}
