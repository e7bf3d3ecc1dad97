import AsyncSchedulers
import Dispatch
import Synchronization

/// One capturing scope: a run of `capturingAllTasks` (a `.virtualTime` test is one) on a
/// ``TestScheduler``. It owns the scope's rules and machinery: which tasks are its own (see
/// ``ActiveScopes``, which the runtime hooks ask), the pump thread that runs their jobs one at a time
/// and moves the clock when nothing is ready (``CaptureScopeStateMachine`` decides), the helper that
/// cancels a body that can never finish, and the end of the scope (stranded jobs handed back, failures
/// reported). It talks to its scheduler only through the calls in `TestScheduler+CaptureScope.swift`.
///
/// Retained by ``ActiveScopes`` while it runs (the hooks reach the scheduler through it) and by its
/// pump; it retains its scheduler.
final class CaptureScope: CapturingScope {
  /// What the caller of `capturingAllTasks` chose, and where it called it.
  struct Options: Sendable {
    var autoAdvance: Bool
    var stallTimeout: Duration
    var place: SourcePlace
  }

  /// The scope's identifier, unique in the process, never 0 (the value of ``CaptureMarker/scope`` in
  /// its tasks).
  let id: UInt64
  let scheduler: TestScheduler
  /// The ID of the first task created since the scope began: older tasks are never the scope's.
  let firstTask: UInt64
  let options: Options
  /// The body's task.
  private let bodyTask: SleepingTask?
  let canceller = BodyCanceller()
  /// The IDs of the scope's tasks (to forget them when it ends).
  private let taskIDs = Mutex<[UInt64]>([])
  /// Whether the scope is open: read without a lock (asked on every job of the scope's tasks), cleared
  /// once, under `taskIDs`' lock, when the scope closes, and read under that lock by ``add(_:)``, so no
  /// task joins a closed scope.
  private let isOpenFlag = Atomic<Bool>(true)
  /// The clocks' readings when the scope began, and the virtual instant it began at (set once when it
  /// begins; `nil` before): what `ContinuousClock.now` reads in the scope's code (see
  /// ``VirtualClockReads``).
  private let bases = Mutex<VirtualClockReads.Bases?>(nil)
  var clockBases: VirtualClockReads.Bases? { bases.withCriticalRegion { $0 } }
  /// A failure the pump found, reported on the test when the scope ends: `nil` when none was found, ""
  /// once one was reported at once (by the canceller), so a scope reports one stall at most.
  let pumpFailure = Mutex<String?>(nil)
  /// What the pump decides when nothing is ready (held by the scope, not the pump's thread, so that a
  /// pump that replaces a blocked one goes on where it left off).
  let pumpMachine: PumpMachineSlot
  /// The token of the job (or timer) the pump runs now, 0 between jobs (read by ``PumpWatch``).
  let pumpJob = Atomic<UInt64>(0)
  /// Jobs that blocked a pump the watch took over, and have not returned yet.
  let abandonedJobs = Atomic<Int>(0)
  /// How many pumps the scope has had beyond its first.
  let pumpGenerations = Atomic<UInt64>(0)

  /// Makes the scope of a body about to run in the calling task.
  init(on scheduler: TestScheduler, options: Options) {
    id = CaptureScopeCounter.next()
    self.scheduler = scheduler
    self.options = options
    firstTask = TaskIdentity.nextTaskID()
    let bodyTask = SleepingTask.current()
    self.bodyTask = bodyTask
    pumpMachine = PumpMachineSlot(
      CaptureScopeStateMachine(
        autoAdvance: options.autoAdvance, bodyTask: ActiveScopes.taskID(of: bodyTask),
        maximumAutoAdvances: Self.maximumAutoAdvances, maximumStalledTimers: 100_000))
  }

  /// How the scope's body ended.
  enum Outcome<Result, Failure: Error> {
    case returned(Result)
    case threw(Failure)
    /// The body could not be moved onto the pump (it never ran).
    case refused

    /// Whether the body could not be moved onto the pump.
    var wasRefused: Bool {
      if case .refused = self { return true }
      return false
    }
  }

  /// Runs `body` in the scope, from beginning to end: the scope begins (the hooks route its tasks'
  /// jobs to the pump), the body runs on the scheduler with it as task executor preference, its
  /// background tasks are cancelled and awaited, and the scope ends (see ``end(bodyEndedInScope:)``).
  func run<Result, Failure: Error>(
    isolation: isolated (any Actor)?, _ body: () async throws(Failure) -> Result
  ) async -> Outcome<Result, Failure> {
    var clockBases = VirtualClockReads.Bases.now()
    clockBases.virtualStart = scheduler.beginCapturing(self)
    bases.withCriticalRegion { [clockBases] in $0 = clockBases }
    ActiveScopes.shared.begin(self)
    // Where clock reads are virtual, plain sleeps' deadlines are exact: no per-job bookkeeping for the
    // deadline recovery (Darwin's mechanism).
    let virtualReads = RuntimeHooks.availability.virtualClockReads
    if virtualReads { scheduler.notesJobStarts.store(false, ordering: .relaxed) }
    defer { if virtualReads { scheduler.notesJobStarts.store(true, ordering: .relaxed) } }
    PumpThreads.shared.run(named: "TestScheduler '\(scheduler.name)' capturing scope") { [self] in
      runPump(generation: 0)
    }
    PumpWatch.shared.watch(self)
    let (outcome, endedInScope) = await CaptureMarker.$scope.withValue(id) {
      () async -> (Outcome<Result, Failure>, Bool) in
      guard await moveOntoScheduler() else { return (.refused, true) }
      scheduler.beginBackgroundWork()
      // The canceller's helper task is the scope's machinery, not the test's: exploring orderings starts
      // once it waits, and ends with the body.
      await canceller.start(cancelling: bodyTask) { [self] failure in report(failure) }
      defer { canceller.finish() }
      scheduler.setExploring(true)
      defer { scheduler.setExploring(false) }
      // Whether the body's last step ran in the scope is read here, before the marker is gone: once it
      // is, a hop back to the caller's isolation (the main actor) leaves the scheduler.
      let outcome: Outcome<Result, Failure>
      do throws(Failure) {
        outcome = .returned(try await runBody(body, isolation: isolation))
      } catch {
        outcome = .threw(error)
      }
      let endedInScope = CurrentSchedulerSlot.isCurrent(scheduler)
      // From here the clock does not move (this runs as a job of the pump, which reads the flag before
      // its next idle decision): the state after the scope is the same every run, from any isolation.
      bodyHasReturned.store(true, ordering: .sequentiallyConsistent)
      await scheduler.endBackgroundWork()
      return (outcome, endedInScope)
    }
    await end(bodyEndedInScope: endedInScope)
    return outcome
  }

  /// Routes one captured global job of the scope to its scheduler; `escaped` when its task ran outside
  /// the scope. Returns `false`, queuing nothing, once the scope has ended (the job then goes on
  /// elsewhere). Called by the global-executor hook on any thread.
  func capture(_ job: UnownedJob, escaped: Bool) -> Bool {
    guard scheduler.queueCapturedJob(job, scope: id) else { return false }
    if escaped {
      scheduler.recordEscape(
        "a job of a task started in the capturing scope",
        origin: "that task running outside the scope, woken by real time (Task.sleep, a real timer) or by "
          + "another thread; it was enqueued by " + ArrivalContext.describeCurrent()
          + ". " + Self.realTimeSleepCause, duringScope: true)
    }
    return true
  }

  /// Why a plain sleep of the scope's code can wake on real time on this platform.
  private static var realTimeSleepCause: String {
    #if os(Linux)
      "(A Task.sleep with a tolerance in a default actor's method is handed to a Dispatch timer source, which "
        + "the scope cannot run: it sleeps on real time. Sleep without a tolerance there.)"
    #else
      "(A plain Task.sleep the runtime hands to a Dispatch timer from a thread the scope does not run, as after "
        + "a call to a default actor returns, sleeps on real time: here clock reads are not virtual.)"
    #endif
  }

  // MARK: Tasks

  /// Whether a job handed to the scheduler is one of the scope's tasks' (see ``CapturingScope``).
  func ownsJob(_ job: UnownedJob) -> Bool { ActiveScopes.shared.mainActorJob(job, belongsTo: scheduler) }

  /// Whether the scope still runs.
  var isOpen: Bool { isOpenFlag.load(ordering: .acquiring) }

  /// Notes a task of the scope; `false` once the scope has ended.
  func add(_ task: UInt64) -> Bool {
    taskIDs.withCriticalRegion { ids in
      guard isOpenFlag.load(ordering: .relaxed) else { return false }
      ids.append(task)
      return true
    }
  }

  /// Closes the scope: returns the IDs of its tasks.
  func close() -> [UInt64] {
    taskIDs.withCriticalRegion { ids in
      isOpenFlag.store(false, ordering: .releasing)
      defer { ids = [] }
      return ids
    }
  }

  // MARK: The body

  /// Runs the scope's body with the scheduler as its task executor preference, in the caller's
  /// isolation: its nonisolated code (and its `async let` and task-group children) comes back here after
  /// a call to a default actor returns, instead of going on on the actor's thread, and a plain sleep in
  /// a default actor it calls is handed to the scheduler (the runtime looks for the task's preference
  /// when the actor has no executor of its own).
  private func runBody<Result, Failure: Error>(
    _ body: () async throws(Failure) -> Result, isolation: isolated (any Actor)?
  ) async throws(Failure) -> Result {
    try await withTaskExecutorPreference(scheduler, isolation: isolation) { () async throws(Failure) -> Result in
      try await body()
    }
  }

  /// Moves the calling task onto the scope's pump: resumed by a pump job, its continuation (and its hop
  /// back to the caller's isolation, the main actor included) is captured. A continuation resumed
  /// before its task has suspended lets the task go on where it was, so it tries again; an isolation
  /// with an executor of its own never arrives, and after a bounded number of tries it gives up.
  ///
  /// Each retry resumes later than the one before (its job goes round the pump's queue once more per
  /// failed try): a pump that is awake from the previous try would otherwise win the race against the
  /// task's suspension every time.
  private func moveOntoScheduler(isolation: isolated (any Actor)? = #isolation) async -> Bool {
    var tries = 0
    while !CurrentSchedulerSlot.isCurrent(scheduler) {
      if tries == 1_000 { return false }
      let rounds = tries
      tries += 1
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        resume(continuation, afterRounds: rounds)
      }
    }
    return true
  }

  /// Queues a pump job that resumes `continuation` after going round the pump's queue `rounds` times.
  private func resume(_ continuation: CheckedContinuation<Void, Never>, afterRounds rounds: Int) {
    scheduler.queueScopeWork { [self] in
      if rounds == 0 { continuation.resume() } else { resume(continuation, afterRounds: rounds - 1) }
    }
  }

  // MARK: Dispatch work (see ScopeDispatch)

  /// Blocks the scope's code handed to Dispatch queues that have not finished running.
  let dispatchInFlight = Atomic<Int>(0)
  /// Those of them running now (the others wait for their queue to start them).
  let dispatchRunning = Atomic<Int>(0)
  /// Whether the body has returned or thrown (the pump then stops moving the clock).
  let bodyHasReturned = Atomic<Bool>(false)

  // MARK: The end

  /// Ends the scope: the hooks stop routing its tasks, the calling task leaves the pump, jobs of the
  /// scope's tasks still queued go back to the runtime's executors (nothing would drive them here), and
  /// the failures found (a body that resumed outside the scope, a stall, escapes) are reported.
  private func end(isolation: isolated (any Actor)? = #isolation, bodyEndedInScope: Bool) async {
    // Cancelled from outside, the body's last steps may be resumed by the canceller's thread: that
    // ends the scope, it is not an escape.
    if !bodyEndedInScope && !Task.isCancelled {
      scheduler.recordEscape(
        "the body of capturingAllTasks",
        origin: "itself: it resumed outside the scope (it awaited a Task.sleep, a real timer, or work "
          + "completed by another thread), so its steps ran concurrently with the scope's tasks")
    }
    scheduler.endCapturing()
    ActiveScopes.shared.end(self)
    PumpWatch.shared.unwatch(self)  // After the scope closed: the watch takes no closed scope back.
    ScopeTimerSources.scopeEnded(self)
    // Leave the pump: with the hook gone, the yield goes to the global executor. (A yield resumed
    // before its task suspended leaves the task where it was: try again.)
    while CurrentSchedulerSlot.isCurrent(scheduler) { await Task.yield() }
    let (global, main) = scheduler.takeStrandedTaskJobs()
    for job in global { RuntimeHooks.enqueueOnGlobalExecutor(job) }
    for job in main { RuntimeHooks.enqueueOnRealMainActor(job) }
    let failure = pumpFailure.withCriticalRegion { $0 }
    if let failure, !failure.isEmpty { report(failure) }
    let place = options.place
    scheduler.reportEscapes(fileID: place.fileID, filePath: place.filePath, line: place.line, column: place.column)
  }

  func report(_ message: String) {
    let place = options.place
    scheduler.report(message, fileID: place.fileID, filePath: place.filePath, line: place.line, column: place.column)
  }
}

/// Identifiers for capturing scopes (never 0).
private enum CaptureScopeCounter {
  private static let last = Atomic<UInt64>(0)
  static func next() -> UInt64 { last.add(1, ordering: .relaxed).newValue }
}
