import AsyncSchedulers
import Dispatch

/// Driving a ``TestScheduler``: the calls that run its work and move its clock (`advance`, `run`, `step`,
/// `runUntil`), one at a time, each a "driving call" that reports runaway work and escapes.
extension TestScheduler {

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

  /// Runs `timer`; when exploring orderings, then every other timer due at the same instant, so the
  /// wake-ups they cause are ready together.
  func fire(_ timer: ScheduledTimer) {
    runJob(.action(timer))
    while let next = state.withCriticalRegion({ $0.firesDueTimersTogether ? $0.popTimer(dueBy: $0.now) : nil }) {
      runJob(.action(next))
    }
  }

  func runJob(_ work: Work) {
    let task = notesJobStarts.load(ordering: .relaxed) ? noteJobStart(work) : nil
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
