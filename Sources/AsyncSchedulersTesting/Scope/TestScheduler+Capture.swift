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
  /// - Pending work: with `expectingNoPendingWork` (the default), work still pending when the scope
  ///   ends fails the test at the call, as ``expectNoPendingWork(fileID:filePath:line:column:)`` would
  ///   (in XCTest and Swift Testing alike, as the `.virtualTime` trait does); pass `false` when the test
  ///   goes on driving the scheduler after the scope.
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
    expectingNoPendingWork: Bool = true,
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ body: () async throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    let missing = RuntimeHooks.availability.missing
    guard missing.isEmpty else {
      report(
        "capturingAllTasks needs the runtime's " + missing.joined(separator: ", ")
          + ", which this runtime does not export: the body runs uncaptured.",
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
    let scope = CaptureScope(
      on: self,
      options: CaptureScope.Options(
        autoAdvance: autoAdvance, stallTimeout: stallTimeout,
        place: SourcePlace(fileID: fileID, filePath: filePath, line: line, column: column)))
    let outcome = await scope.run(isolation: isolation, body)
    if expectingNoPendingWork, !outcome.wasRefused {
      // As the `.virtualTime` trait does at the end of its test: what the scope's code left pending (a
      // poller nobody stopped, a timer nobody cancelled) fails the test here, under XCTest too.
      expectNoPendingWork(atEndOfTest: true, fileID: fileID, filePath: filePath, line: line, column: column)
    }
    switch outcome {
    case .returned(let value): return value
    case .threw(let error): throw error
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
  /// ``capturingAllTasks(isolation:autoAdvance:stallTimeout:expectingNoPendingWork:fileID:filePath:line:column:_:)`` or a
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
      if CurrentSchedulerSlot.isCurrent(self) || isCapturing(scope: marker) {
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
}
