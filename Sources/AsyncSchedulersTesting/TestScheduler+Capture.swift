import AsyncSchedulers
import Dispatch
import Foundation
import Synchronization

extension TestScheduler {
  /// Runs `body` with every job that would go to the global concurrent executor routed to this
  /// scheduler: unstructured tasks, `Task.detached`, default actors' jobs and the body's own
  /// continuations run here, one job at a time, in FIFO order.
  ///
  /// Inside the scope, ready work runs by itself, on a thread the scope owns (its *pump*; parked
  /// threads are reused by scope after scope and end after 30 s without a scope), without the test
  /// driving it. With `autoAdvance` (the default), when nothing of the scope is ready and no driving
  /// call runs, the clock jumps to the next timer and runs it, so awaiting what sleeps returns at its
  /// exact virtual instant; ``settle(fileID:filePath:line:column:)`` waits for the current instant
  /// without moving the clock. ``TestScheduler/advance(by:fileID:filePath:line:column:)``,
  /// ``TestScheduler/run(maximumSteps:fileID:filePath:line:column:)`` and
  /// ``TestScheduler/step(fileID:filePath:line:column:)`` called from the body move the clock by hand,
  /// as everywhere else (without `autoAdvance`, only they do). So
  /// operators written the swift-async-algorithms way (an internal `Task {}` iterating upstream,
  /// `clock.sleep(until:)` on the clock they are given) are exact when given this scheduler as their
  /// clock:
  ///
  /// ```swift
  /// await scheduler.capturingAllTasks {
  ///   let consumer = Task { for await value in values.debounce(for: .milliseconds(100), clock: scheduler) { … } }
  ///   scheduler.advance(by: .seconds(1))
  ///   await consumer.value
  /// }
  /// ```
  ///
  /// - Which tasks are the scope's: tasks its code starts (the body's, theirs, detached ones), and
  ///   from then on every job of theirs, whoever enqueues it: a task resumed by a Dispatch callback or
  ///   another thread runs here, at the current virtual instant, never concurrently with the scope's
  ///   other work (the scope waits for it in real time, without moving the clock).
  /// - Parallel tests: scopes run in parallel, each seeing only its own tasks. Other tests' global
  ///   work is not captured: it goes to the global executor as usual, through one extra check. Two
  ///   scopes' main-actor jobs take turns on the real main queue.
  /// - The caller's isolation: the body runs in it (`isolation` defaults to `#isolation`), so a
  ///   `@MainActor` test calls main-actor code in the body directly.
  /// - Main-actor code: jobs of main-actor code the scope's code starts (a `Task {}` in a `@MainActor`
  ///   method, a hop to the main actor, a continuation resumed onto it) run on this scheduler, in its
  ///   FIFO, with the main queue held (`MainActor.assumeIsolated` and main-queue checks hold). The real
  ///   main thread must be free to serve the main queue (under `swift test` it is).
  /// - Plain sleeps and the clocks: `Task.sleep` and the `ContinuousClock`/`SuspendingClock` sleeps of
  ///   the scope's tasks wake at their exact virtual deadline. On Linux, `ContinuousClock.now` and
  ///   `SuspendingClock.now` read virtual time in the scope's code (so a deadline computed as `.now + d`
  ///   is exact by construction, and it does not move while a job runs); elsewhere a real-clock deadline
  ///   is recovered from the windows in which the task read the clock, and one computed in another task
  ///   is reported. `Date()` and Dispatch's clock stay real.
  /// - The body runs with this scheduler as its task executor preference (in its isolation; its
  ///   `async let` and task-group children inherit it), so its nonisolated code comes back here after a
  ///   call to a default actor, and sleeps in the default actors it calls come here too. On Linux, a
  ///   plain sleep the runtime still gives to the global executor from the scope's thread (a default
  ///   actor called from an unstructured task) becomes a virtual timer as well.
  /// - What is not captured: tasks that prefer another executor, and actors with executors of their own.
  ///   A scope started from a task that prefers another executor, or inside another scheduler's scope,
  ///   fails at once and runs the body uncaptured (or in the outer scope); inside a scope of this
  ///   scheduler, the body simply runs in it.
  /// - Endless time: auto-advance stops after 100,000 jumps while the body does not run (timers that
  ///   re-arm forever while the body awaits what never comes); the scope fails the test, naming what
  ///   kept the clock moving, and cancels the body so the test ends.
  /// - Stalls: when the body waits and nothing has been ready for `stallTimeout` of real time: with
  ///   timers pending (without `autoAdvance`), the scope fails the test when it ends and fires the timers
  ///   one by one so the body can finish; with none, the body awaits what never comes (outside work that
  ///   did not arrive, a stream nobody feeds), so the failure is recorded at once, on the body's test,
  ///   and the body is cancelled so the test ends instead of hanging.
  /// - Background work: ``backgroundTask(fileID:filePath:line:column:_:)`` starts tasks that are
  ///   cancelled and awaited when the body ends.
  /// - Exit: the hooks are removed when `body` returns or throws (also when the task is cancelled).
  ///   Timers and callbacks still pending stay on this scheduler and run on its next driving call; ready
  ///   jobs of tasks go back to the runtime's executors (global or main), so a task that outlives the
  ///   scope is never stranded. Escapes recorded in the scope are reported when it ends.
  /// - Precondition: the runtime exports `swift_task_enqueueGlobal_hook` and
  ///   `swift_task_getMainExecutor_hook` (Linux and Darwin do); if it does not, the scope fails the test
  ///   and runs `body` uncaptured.
  ///
  /// Cancellation: `body` sees the caller's cancellation as usual. A task of the scope cancelled from
  /// outside it is woken by the cancelling thread; when that task is the body, the scope ends without
  /// reporting it as an escape.
  @discardableResult
  public func capturingAllTasks<Result, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation,
    autoAdvance: Bool = true,
    stallTimeout: Duration = .seconds(10),
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ body: () async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    guard ActiveScopes.shared.isAvailable else {
      report(
        "capturingAllTasks needs the runtime's swift_task_enqueueGlobal_hook, swift_task_getMainExecutor_hook and "
          + "swift_task_getJobTaskId, which this runtime does not export: the body runs uncaptured.",
        fileID: fileID, filePath: filePath, line: line, column: column)
      return try await body()
    }
    switch admissionOfScope() {
    case .start: break
    case .alreadyCapturing: return try await body()
    case .refused(let reason):
      report(reason, fileID: fileID, filePath: filePath, line: line, column: column)
      return try await body()
    }
    let scope = CaptureScopeCounter.next()
    _ = state.withCriticalRegion { $0.setCapturingScope(scope) }
    ActiveScopes.shared.begin(scope, on: self)
    let bodyTask = SleepingTask.current()
    let canceller = BodyCanceller()
    startPump(
      PumpOptions(
        scope: scope, stallTimeout: stallTimeout, autoAdvance: autoAdvance, bodyTask: ActiveScopes.taskID(of: bodyTask),
        canceller: canceller))
    let outcome: CaptureOutcome<Result, Failure> = await CaptureMarker.$scope.withValue(scope) {
      guard await moveOntoScheduler() else { return .refused }
      beginBackgroundWork()
      // The canceller's helper task is the scope's machinery, not the test's: exploring orderings starts
      // once it waits, and ends with the body.
      await canceller.start(cancelling: bodyTask) { [self] failure in
        report(failure, fileID: fileID, filePath: filePath, line: line, column: column)
      }
      defer { canceller.finish() }
      state.withCriticalRegion { $0.setExploring(true) }
      defer { state.withCriticalRegion { $0.setExploring(false) } }
      // Whether the body's last step ran in the scope is read here, before the marker is gone: once it
      // is, a hop back to the caller's isolation (the main actor) leaves the scheduler.
      do throws(Failure) {
        let value = try await runBody(body, isolation: isolation)
        let endedInScope = CurrentSchedulerSlot.isCurrent(self)
        await endBackgroundWork()
        return .returned(value, endedInScope: endedInScope)
      } catch {
        let endedInScope = CurrentSchedulerSlot.isCurrent(self)
        await endBackgroundWork()
        return .threw(error, endedInScope: endedInScope)
      }
    }
    await endCapture(
      scope: scope, bodyEndedInScope: outcome.endedInScope, fileID: fileID, filePath: filePath, line: line,
      column: column)
    switch outcome {
    case .returned(let value, _): return value
    case .threw(let error, _): throw error
    case .refused:
      report(
        "capturingAllTasks could not move its body onto TestScheduler '\(name)': the caller is isolated to an "
          + "actor with an executor of its own. Call it from a nonisolated or @MainActor test; the body runs "
          + "uncaptured.", fileID: fileID, filePath: filePath, line: line, column: column)
      return try await body()
    }
  }

  /// Returns when every task of the capturing scope is suspended with nothing ready to run, without
  /// moving the clock (Go's `synctest.Wait`): what the code under test does at the current instant
  /// has all happened.
  ///
  /// Call it from the body of
  /// ``capturingAllTasks(isolation:autoAdvance:stallTimeout:fileID:filePath:line:column:_:)`` or a
  /// `.virtualTime` test. The scope's pump resumes the caller when it finds nothing ready, before
  /// auto-advance would move the clock; no yield loops, no real-time waits. Outside a capturing scope
  /// it runs the ready work (as `advance(by: .zero)`) and returns. It never blocks a thread;
  /// cancellation does not end it early (it returns as soon as the scope settles, which the pump
  /// decides without waiting on time).
  public func settle(
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) -> Void in
      let outcome = state.withCriticalRegion { $0.addSettleWaiter(continuation) }
      switch outcome {
      case nil: continuation.resume()
      case true?: wakeup.signal()
      case false?: break
      }
    }
    if !isCapturing { advance(by: .zero, fileID: fileID, filePath: filePath, line: line, column: column) }
  }

  /// Runs the scope's body with this scheduler as its task executor preference, in the caller's
  /// isolation: its nonisolated code (and its `async let` and task-group children) comes back here after
  /// a call to a default actor returns, instead of going on on the actor's thread, and a plain sleep in
  /// a default actor it calls is handed to this scheduler (the runtime looks for the task's preference
  /// when the actor has no executor of its own).
  private func runBody<Result, Failure: Error>(
    _ body: () async throws(Failure) -> Result, isolation: isolated (any Actor)?
  ) async throws(Failure) -> Result {
    try await withTaskExecutorPreference(self, isolation: isolation) { () async throws(Failure) -> Result in
      try await body()
    }
  }

  /// Whether a capturing scope of this scheduler runs.
  var isCapturing: Bool { state.withCriticalRegion { $0.isCapturing } }

  /// Whether a scope can start here: not when the caller is already in a scope of this scheduler (the
  /// body simply runs in that scope), nor when it is in a scope of another scheduler (scopes do not
  /// nest across schedulers) or its task prefers another executor (its code would never reach the
  /// scope's pump).
  private enum ScopeAdmission {
    case start
    case alreadyCapturing
    case refused(String)
  }

  private func admissionOfScope() -> ScopeAdmission {
    let marker = CaptureMarker.scope
    if marker != 0 {
      if CurrentSchedulerSlot.isCurrent(self) || state.withCriticalRegion({ $0.capturingScope == marker }) {
        return .alreadyCapturing
      }
      return .refused(
        "capturingAllTasks on TestScheduler '\(name)' was called inside the capturing scope of another "
          + "scheduler: scopes do not nest across schedulers. The body runs in the outer scope; use one scheduler "
          + "per test.")
    }
    let prefersOther = withUnsafeCurrentTask { task -> Bool in
      guard let preferred = task?.unownedTaskExecutor else { return false }
      return preferred != UnownedTaskExecutor(ordinary: self)
    }
    if prefersOther {
      return .refused(
        "capturingAllTasks on TestScheduler '\(name)' was called from a task that prefers another executor "
          + "(Task(executorPreference:) or withTaskExecutorPreference): its code would never reach the scope. Start "
          + "the scope outside that preference; the body runs uncaptured.")
    }
    return .start
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
    while !CurrentSchedulerSlot.isCurrent(self) {
      if tries == 1_000 { return false }
      let rounds = tries
      tries += 1
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        enqueueResume(continuation, afterRounds: rounds)
      }
    }
    return true
  }

  /// Queues a pump job that resumes `continuation` after going round the pump's queue `rounds` times.
  private func enqueueResume(_ continuation: CheckedContinuation<Void, Never>, afterRounds rounds: Int) {
    let admission = state.withCriticalRegion { state in
      state.enqueue(
        .closure { [self] in
          if rounds == 0 { continuation.resume() } else { enqueueResume(continuation, afterRounds: rounds - 1) }
        })
    }
    if admission.wake { wakeup.signal() }
  }

  /// Routes one captured global job of `scope` here; `escaped` when its task ran outside the scope.
  /// Returns `false`, queuing nothing, once that scope has ended (the job then goes on elsewhere).
  func capture(_ job: UnownedJob, scope: UInt64, escaped: Bool) -> Bool {
    let admission = state.withCriticalRegion { state -> TestSchedulerStateMachine.Admission? in
      guard state.capturingScope == scope else { return nil }
      return state.enqueue(.taskJob(job), .captured)
    }
    guard let admission else { return false }
    if admission.wake { wakeup.signal() }
    if escaped {
      recordEscape(
        "a job of a task started in the capturing scope",
        origin: "that task running outside the scope, woken by real time (Task.sleep, a real timer) or by "
          + "another thread; it was enqueued by " + ArrivalContext.describeCurrent()
          + ". (A plain Task.sleep the runtime hands to a Dispatch timer from a thread the scope does not run, as "
          + "on Darwin after a call to a default actor returns, sleeps on real time.)")
    }
    return true
  }

  private func endCapture(
    isolation: isolated (any Actor)? = #isolation, scope: UInt64, bodyEndedInScope: Bool = true,
    fileID: String, filePath: String, line: Int, column: Int
  ) async {
    // Cancelled from outside, the body's last steps may be resumed by the canceller's thread: that
    // ends the scope, it is not an escape.
    if !bodyEndedInScope && !Task.isCancelled {
      recordEscape(
        "the body of capturingAllTasks",
        origin: "itself: it resumed outside the scope (it awaited a Task.sleep, a real timer, or work "
          + "completed by another thread), so its steps ran concurrently with the scope's tasks")
    }
    let (wake, settled) = state.withCriticalRegion { $0.setCapturingScope(0) }
    if wake { wakeup.signal() }
    for waiter in settled { waiter.resume() }
    ActiveScopes.shared.end(scope, on: self)
    // Leave the pump: with the hook gone, the yield goes to the global executor. (A yield resumed
    // before its task suspended leaves the task where it was: try again.)
    while CurrentSchedulerSlot.isCurrent(self) { await Task.yield() }
    // Tasks of the scope (or resumed by it) whose jobs are still queued outlive it: nothing would drive
    // them here, so they go on on the runtime's executors instead of staying stranded.
    let (global, main) = state.withCriticalRegion { $0.takeTaskJobs() }
    for job in global { GlobalEnqueueHook.enqueueOnGlobalExecutor(job) }
    for job in main { MainExecutorHook.enqueueOnRealMainActor(job) }
    let stall = state.withCriticalRegion { state -> String? in
      defer { state.stallReport = nil }
      return state.stallReport
    }
    if let stall, !stall.isEmpty { report(stall, fileID: fileID, filePath: filePath, line: line, column: column) }
    reportEscapes(fileID: fileID, filePath: filePath, line: line, column: column)
  }

  private func startPump(_ options: PumpOptions) {
    PumpThreads.shared.run(named: "TestScheduler '\(name)' capturing scope") { [self] in
      runPump(options)
    }
  }

  /// The pump: runs the scope's ready work one job at a time until the scope ends; when nothing is
  /// ready, moves the clock to the next timer (auto-advance) or waits for work to arrive.
  private func runPump(_ options: PumpOptions) {
    Schedulers.withCurrent(self) {
      let bodyTask = options.bodyTask
      var stalled = false
      var autoSteps = 0
      var autoAdvancing = options.autoAdvance
      var jumpsSinceBodyRan = 0
      while true {
        switch state.withCriticalRegion({ $0.nextPumpStep(scope: options.scope) }) {
        case .stop:
          return
        case .settled(let waiters):
          for waiter in waiters { waiter.resume() }
        case .run(let work):
          if autoAdvancing && bodyTask != 0 && Self.taskID(of: work) == bodyTask { jumpsSinceBodyRan = 0 }
          runJob(work)
        case .wait:
          if autoAdvancing {
            if jumpsSinceBodyRan >= Self.maximumAutoAdvances {
              autoAdvancing = false
              recordEndlessAdvance()
              options.canceller.requestCancellation()
              continue
            }
          }
          // Auto-advance, or a stalled body's timers fired one by one (bounded).
          if autoAdvancing || (stalled && autoSteps < 100_000) {
            switch fireNextTimer() {
            case .fired:
              if autoAdvancing { jumpsSinceBodyRan += 1 } else { autoSteps += 1 }
              continue
            case .workArrived: continue
            case .nothing: break
            }
          }
          let deadline = SchedulerInstant.uptimeNow.advanced(by: max(options.stallTimeout, .zero)).dispatchTime
          if wakeup.wait(timeout: stalled ? .distantFuture : deadline) == .timedOut {
            state.withCriticalRegion { $0.stopWaiting() }
            stalled = recordStall(stallTimeout: options.stallTimeout, canceller: options.canceller) || stalled
          }
        }
      }
    }
  }

  /// How many times auto-advance moves the clock while the body does not run before it gives up: work
  /// that keeps re-arming forever (a poller nobody stops) would otherwise advance without end.
  static let maximumAutoAdvances = 100_000

  /// The task a piece of work is a job of (0 for other work).
  private static func taskID(of work: Work) -> UInt64 {
    switch work {
    case .taskJob(let job), .job(let job): ActiveScopes.taskID(of: job)
    case .runnable(let runnable as MainActorJob): ActiveScopes.taskID(of: runnable.job)
    default: 0
    }
  }

  /// Records that auto-advance gave up, naming what kept the clock moving.
  private func recordEndlessAdvance() {
    state.withCriticalRegion { state in
      guard state.stallReport == nil else { return }
      state.stallReport =
        "capturingAllTasks: auto-advance moved the clock \(Self.maximumAutoAdvances) times (to \(state.now)) while "
        + "the body waited without running: timers keep re-arming (a poller or repeating timer nobody stops) and "
        + "what the body awaits never comes. The body was cancelled so the test can end. What kept the clock "
        + "moving:\n" + state.describePending(name: name)
    }
  }

  /// Records why the body stalled; returns whether timers are pending (then the pump fires them, and
  /// the failure is reported when the scope ends). With no timer either, the body awaits what never came
  /// (a stream nobody feeds, outside work that did not arrive): the failure is recorded at once on the
  /// body's test, and the body is cancelled so the scope, and the test, can end.
  private func recordStall(stallTimeout: Duration, canceller: BodyCanceller) -> Bool {
    let (hasTimers, failure) = state.withCriticalRegion { state -> (Bool, String?) in
      guard state.queues.readyCount == 0, !state.isDriving else { return (false, nil) }
      let hasTimers = state.hasFiringTimer
      guard state.stallReport == nil else { return (hasTimers, nil) }
      let failure =
        "capturingAllTasks: the body waited \(stallTimeout) of real time with nothing ready to run. "
        + (hasTimers
          ? "It awaits work that needs virtual time: move the clock (advance(by:), run()) before awaiting "
            + "it. The scope fired the pending timers one by one so the body could finish.\n"
          : "It awaits what never came: work from outside the scope (a real timer, another thread) that did "
            + "not arrive, or something no task of the scope will ever send (a stream nobody feeds, a "
            + "continuation nobody resumes). The body was cancelled so the test can end.\n")
        + state.describePending(name: name)
      // Reported when the scope ends (timers) or now, by the canceller (nothing left to wait for);
      // remembered either way, so it is reported once.
      state.stallReport = hasTimers ? failure : ""
      return (hasTimers, hasTimers ? nil : failure)
    }
    if let failure { canceller.requestCancellation(reporting: failure) }
    return hasTimers
  }

  /// What the pump found when it looked for a timer to fire.
  private enum TimerStep {
    /// It fired the earliest timer, moving the clock to its deadline.
    case fired
    /// Work became ready meanwhile: run it first.
    case workArrived
    /// No timer can fire (or a driving call runs): the pump stays a blocked waiter.
    case nothing
  }

  /// Fires the earliest timer, moving the clock to its deadline, when nothing is ready and no driving
  /// call runs. Called after the pump's step found nothing ready (the pump is registered as the blocked
  /// waiter): it stays registered unless it goes on running, so work arriving meanwhile wakes it.
  private func fireNextTimer() -> TimerStep {
    let step = state.withCriticalRegion { state -> (TimerStep, ScheduledTimer?) in
      guard !state.isDriving else { return (.nothing, nil) }
      if state.queues.readyCount > 0 {
        state.stopWaiting()
        return (.workArrived, nil)
      }
      guard state.hasFiringTimer else { return (.nothing, nil) }
      state.stopWaiting()
      state.beginDriving()
      guard let timer = state.popTimer(dueBy: .distantFuture) else { return (.workArrived, nil) }
      return (.fired, timer)
    }
    if let timer = step.1 { fire(timer) }
    return step.0
  }
}

/// What a scope's pump needs to know.
private struct PumpOptions: Sendable {
  let scope: UInt64
  let stallTimeout: Duration
  let autoAdvance: Bool
  /// The body's task ID, to tell its jobs.
  let bodyTask: UInt64
  /// Cancels the body when auto-advance gives up.
  let canceller: BodyCanceller
}

/// How a scope's body ended.
private enum CaptureOutcome<Result, Failure: Error> {
  case returned(Result, endedInScope: Bool)
  case threw(Failure, endedInScope: Bool)
  /// The body could not be moved onto the pump (it never ran).
  case refused

  /// Whether the body's last step ran in the scope (a refused body never ran: nothing to report).
  var endedInScope: Bool {
    switch self {
    case .returned(_, let ended), .threw(_, let ended): ended
    case .refused: true
    }
  }
}

/// Identifiers for capturing scopes (never 0).
private enum CaptureScopeCounter {
  private static let last = Atomic<UInt64>(0)
  static func next() -> UInt64 { last.add(1, ordering: .relaxed).newValue }
}
