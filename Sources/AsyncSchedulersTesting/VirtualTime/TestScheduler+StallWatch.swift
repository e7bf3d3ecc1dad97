import AsyncSchedulers
import Dispatch
import Synchronization

/// Never a silent hang: a task that awaits a job parked on a scheduler nothing drives (an actor bound
/// to it, a task preferring it), or sleeps on its clock, would wait forever. One real-time timer per
/// scheduler watches such a job or sleep (armed when it arrives on a scheduler that has never been
/// driven and no scope captures); when it fires and the scheduler has still never been driven, the
/// scheduler fails the test and runs what is pending, so the waiting task, and the test, go on. A scheduler the test has driven is left
/// alone: work it leaves behind is the test's choice (`expectNoPendingWork` reports it).
extension TestScheduler {
  /// Starts the watch: one check after ``stallTimeout`` of real time, on a Dispatch timer, once the
  /// cooperative pool has had its turn (see ``PoolTurn``: the step of the test that would drive the
  /// scheduler may be waiting in the pool's queue), or another stall timeout later at most. Its report
  /// names the line that created the scheduler and is recorded in the context of the Swift Testing
  /// test that created it (see ``OwningTestRelay``): the timer's thread has no test of its own.
  func startStallWatch() {
    let timeout = stallTimeout
    let nanoseconds = Int(clamping: UInt64(timeout.saturatingTimeInterval * 1e9))
    PackageDispatch.submit {
      WatchThreads.timers.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
        PoolTurn.after(bound: timeout) { [weak self] in self?.endStallWatch() }
      }
    }
  }

  private func endStallWatch() {
    let (end, pending) = state.withCriticalRegion { state in
      let end = state.stallWatchEnded()
      return (end, end == .stalled ? state.pendingSnapshot() : nil)
    }
    switch end {
    case .noStall: return
    case .stalledAgain: return runStalledWorkAndWatch()
    case .stalled: break
    }
    guard let pending else { return }
    let message =
      "TestScheduler '\(name)': a task waited \(stallTimeout) of real time for work parked on this scheduler "
      + "or for a sleep on its clock, and nothing drives it (no advance, run or step). Fix it in one of two "
      + "ways: drive the scheduler from the test before awaiting that work (scheduler.advance(by:), run()), or run the code inside "
      + "`await scheduler.capturingAllTasks { … }` or a `@Test(.virtualTime)` test, where ready work runs "
      + "by itself. The scheduler now runs what is pending (its ready work, then its timers in order) so the "
      + "test can end, and watches again if more work is parked.\n" + pending.describe(name: name)
    // Reported, then run, in the context of the test that created the scheduler: the failure is that
    // test's (withKnownIssue there sees it) and is recorded before the waiting task goes on. That context
    // is a task, which needs a thread of the cooperative pool: if none comes within another stall
    // timeout (tests blocking the pool's threads), the work runs here anyway, so the task goes on and the
    // test ends; the failure is recorded when the relay runs.
    issuesReported.add(1, ordering: .relaxed)
    let ran = ClaimOnce()
    inOwningTest { [self] in
      reportIssue(
        message, fileID: creation.fileID, filePath: creation.filePath, line: creation.line, column: creation.column)
      if ran.claim() { runStalledWorkAndWatch() }
    }
    let nanoseconds = Int(clamping: UInt64(stallTimeout.saturatingTimeInterval * 1e9))
    WatchThreads.timers.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
      if ran.claim() { self?.runStalledWorkAndWatch() }
    }
  }

  /// Runs what is pending, then watches again: the code it ran may hand work over from elsewhere
  /// later (an actor method calling a nonisolated sleep leaves the scheduler and adds the sleep's
  /// timer from the global executor, after this run has found no timer).
  private func runStalledWorkAndWatch() {
    runStalledWork()
    if state.withCriticalRegion({ $0.armStallWatch() }) { startStallWatch() }
  }
}

extension Duration {
  /// Seconds as a `Double` for Dispatch, saturating at a year (a longer wait is "never" for a test).
  var saturatingTimeInterval: Double {
    let (seconds, attoseconds) = components
    return min(Double(seconds) + Double(attoseconds) / 1e18, 365 * 24 * 3_600)
  }
}
