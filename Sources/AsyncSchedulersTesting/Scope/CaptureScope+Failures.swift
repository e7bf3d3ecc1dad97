import AsyncSchedulers
import Synchronization

/// What a scope's pump records when the scope cannot go on as written: auto-advance that never ends,
/// a body that stalls, outside work that does not finish.
extension CaptureScope {
  /// Records that Dispatch work the scope's code handed over was still running after the stall timeout
  /// (reported when the scope ends): the clock moves on without it.
  func recordOverdueOutsideWork() {
    let failure =
      "capturingAllTasks: Dispatch work the scope's code handed over (a block on a queue, or an asyncAfter "
      + "that fired) was still running after \(options.stallTimeout) of real time. It held the clock until "
      + "then; it blocks on something (a semaphore, a lock, a result that needs virtual time). The clock moved "
      + "on without it, so what it does later happens at a later virtual instant than on a device."
    pumpFailure.withCriticalRegion { if $0 == nil { $0 = failure } }
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
    // Not a stall when work arrived meanwhile or the body drives the scheduler.
    guard let (hasTimers, pending) = scheduler.stallFacts() else { return false }
    let failure =
      "capturingAllTasks: the body waited \(options.stallTimeout) of real time with nothing ready to run. "
      + (hasTimers
        ? "It awaits work that needs virtual time: move the clock (advance(by:), run()) before awaiting "
          + "it. The scope fired the pending timers one by one so the body could finish.\n"
        : "It awaits what never came: work from outside the scope (a real timer, another thread) that did "
          + "not arrive, or something no task of the scope will ever send (a stream nobody feeds, a "
          + "continuation nobody resumes). The body was cancelled so the test can end.\n")
      + pending.describe(name: scheduler.name)
    // Reported when the scope ends (timers) or now, by the canceller (nothing left to wait for);
    // remembered either way, so it is reported once.
    let first = pumpFailure.withCriticalRegion { recorded -> Bool in
      guard recorded == nil else { return false }
      recorded = hasTimers ? failure : ""
      return true
    }
    if first && !hasTimers { canceller.requestCancellation(reporting: failure) }
    return hasTimers
  }
}
