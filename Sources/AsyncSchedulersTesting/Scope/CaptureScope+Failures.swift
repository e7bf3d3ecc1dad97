import AsyncSchedulers
import Synchronization

/// What a scope's pump records when the scope cannot go on as written: auto-advance that never ends,
/// a body that stalls, outside work that does not finish.
extension CaptureScope {
  /// Records that Dispatch work the scope's code handed over was still running after the stall timeout
  /// (`started`), or had not started after twice that, (reported when the scope ends): the clock moves
  /// on without it.
  func recordOverdueOutsideWork(started: Bool) {
    let failure =
      "capturingAllTasks: Dispatch work the scope's code handed over (a block on a queue, or an asyncAfter "
      + (started
        ? "that fired) was still running after \(options.stallTimeout) of real time. It held the clock until "
          + "then; it blocks on something (a semaphore, a lock, a result that needs virtual time). "
        : "that fired) had not started after twice \(options.stallTimeout) of real time. It held the clock "
          + "until then; its queue did not run it (a serial queue busy with other work or suspended, or every "
          + "thread Dispatch would give it taken). ")
      + "The clock moved on without it, so what it does later happens at a later virtual instant than on a "
      + "device."
    pumpFailure.withCriticalRegion { if $0 == nil { $0 = failure } }
  }

  /// Reports at once, on the test that owns the scope, that a job of the scope blocked the pump thread
  /// for the stall timeout: the scope went on on another thread.
  func reportBlockedPump() {
    let failure =
      "capturingAllTasks: a job of the scope blocked the scope's thread for \(options.stallTimeout) of real time: it "
      + "waits on the thread (DispatchSemaphore.wait(), a lock, Thread.sleep, a blocking call) for something that "
      + "only the scope's other work can do, and that work runs on the same thread, one job at a time. The scope "
      + "went on on a new thread so the test can end; the blocked job, if it returns, runs alongside it, so what "
      + "follows is not deterministic. Await instead of blocking (a continuation, an AsyncStream, a task's value)."
    // Marked reported: a later stall is not reported again (it still cancels the body).
    let first = pumpFailure.withCriticalRegion { recorded -> Bool in
      guard recorded == nil else { return false }
      recorded = ""
      return true
    }
    if first { report(failure) }
  }

  /// Records that auto-advance gave up, naming what kept the clock moving.
  func recordEndlessAdvance() {
    let pending = scheduler.pendingSnapshot()
    let failure =
      "capturingAllTasks: auto-advance moved the clock \(Self.maximumAutoAdvances) times (to \(pending.now)) while "
      + "the body waited without running: timers keep re-arming (a poller or repeating timer nobody stops) and "
      + "what the body awaits never comes. The body was cancelled so the test can end. What kept the clock "
      + "moving:\n" + pending.describe(name: scheduler.name)
    pumpFailure.withCriticalRegion { if $0 == nil { $0 = failure } }
  }

  /// Records why the body stalled; returns whether timers are pending (then the pump fires them, and
  /// the failure is reported when the scope ends). With no timer either, the body awaits what never came
  /// (a stream nobody feeds, outside work that did not arrive): the failure is recorded at once on the
  /// body's test, and the body is cancelled so the scope, and the test, can end.
  func recordStall() -> Bool {
    // Not a stall when work arrived meanwhile or the body drives the scheduler, nor while a job that
    // blocked the pump still runs (it may yet send what the scope awaits; it was reported).
    guard abandonedJobs.load(ordering: .sequentiallyConsistent) == 0 else { return false }
    guard let (hasTimers, pending) = scheduler.stallFacts() else { return false }
    let failure =
      "capturingAllTasks: the body waited \(options.stallTimeout) of real time with nothing ready to run. "
      + (hasTimers
        ? "It awaits work that needs virtual time: move the clock (advance(by:), run()) before awaiting "
          + "it. The scope fired the pending timers one by one so the body could finish.\n"
        : "It awaits what never came: work from outside the scope (a real timer, another thread) that did "
          + "not arrive, or something no task of the scope will ever send (a stream nobody feeds, a "
          + "continuation nobody resumes). The body was cancelled so the test can end; a wait that ignores "
          + "cancellation (a continuation nobody resumes) still keeps it from ending, and Swift offers no way to "
          + "return from a test whose body is suspended there.\n")
      + pending.describe(name: scheduler.name)
    // Reported when the scope ends (timers) or now, by the canceller (nothing left to wait for);
    // remembered either way, so it is reported once.
    let first = pumpFailure.withCriticalRegion { recorded -> Bool in
      guard recorded == nil else { return false }
      recorded = hasTimers ? failure : ""
      return true
    }
    // Cancelled even when another failure was recorded first (a blocked pump): the body must end.
    if !hasTimers { canceller.requestCancellation(reporting: first ? failure : nil) }
    return hasTimers
  }
}
