import AsyncSchedulers
import Synchronization

/// The scope's pump: the thread that runs the scope's jobs one at a time and moves the clock when
/// nothing is ready, as ``CaptureScopeStateMachine`` decides, watched by ``PumpWatch`` (a job that
/// blocks it for the stall timeout hands the scope to a new pump).
extension CaptureScope {
  /// How many times auto-advance moves the clock while the body does not run before it gives up: work
  /// that keeps re-arming forever (a poller nobody stops) would otherwise advance without end.
  static let maximumAutoAdvances = 100_000

  /// The pump: runs the scope's ready work one job at a time until the scope ends; when nothing is
  /// ready, does what ``CaptureScopeStateMachine`` says (move the clock to the next timer, give up
  /// auto-advance, or wait for work to arrive). `generation` tells this pump's job tokens from those of
  /// the pump it replaced, if the watch took one over (see ``pumpBlocked(token:)``); this pump returns
  /// when the scope ends, or when the watch takes it over.
  func runPump(generation: UInt64) {
    Schedulers.withCurrent(scheduler) {
      var token = generation << 40
      while true {
        switch scheduler.pumpStep(scope: id) {
        case .stop:
          return
        case .settled(let waiters):
          for waiter in waiters { waiter.resume() }
        case .run(let work):
          if pumpMachine.machine.watchesBodyJobs { pumpMachine.machine.willRunJob(ofTask: Self.taskID(of: work)) }
          token += 1
          guard runWatched(token, { scheduler.runJob(work) }) != nil else { return }
        case .wait:
          let returned = bodyHasReturned.load(ordering: .sequentiallyConsistent)
          let workInFlight = hasDispatchWorkInFlight
          if !pumpMachine.machine.bodyHasReturned && returned { pumpMachine.machine.bodyReturned() }
          var action = pumpMachine.machine.nothingReady(workInFlight: workInFlight)
          if action == .fireNextTimer {
            token += 1
            guard let step = runWatched(token, { scheduler.fireNextTimerForPump() }) else { return }
            guard let next = pumpMachine.machine.timerStep(step) else { continue }
            action = next
          }
          switch action {
          case .giveUpAutoAdvance:
            recordEndlessAdvance()
            canceller.requestCancellation()
          case .wait(let stallBound):
            if !scheduler.waitForWork(timeout: stallBound ? options.stallTimeout : nil) {
              // Not a stall until the cooperative pool has had its turn (a real callback's wake-up
              // may still wait in its queue), for another stall timeout at most.
              let turn = PoolTurn.start { [scheduler] in scheduler.wakePump() }
              if scheduler.waitForWork(orUntil: { turn.isOver }, timeout: options.stallTimeout) { continue }
              let timersPending = recordStall()
              pumpMachine.machine.waitTimedOut(timersPending: timersPending)
            }
          case .waitForOutsideWork:
            if !scheduler.waitForWork(timeout: options.stallTimeout) {
              // Blocks that have not started wait for their queue (a serial queue busy with other work,
              // Dispatch's threads all taken on a loaded machine), not for the clock: one more stall
              // timeout for them to start and finish.
              let started = hasDispatchWorkRunning
              if !started
                && (scheduler.waitForWork(
                  orUntil: { [self] in !hasDispatchWorkInFlight }, timeout: options.stallTimeout)
                  || !hasDispatchWorkInFlight)
              {
                continue
              }
              pumpMachine.machine.outsideWorkTimedOut()
              recordOverdueOutsideWork(started: started || hasDispatchWorkRunning)
            }
          case .fireNextTimer:
            continue
          }
        }
      }
    }
  }

  /// Runs one job (or timer) of the pump where ``PumpWatch`` sees it: the pump shows `token` while it
  /// runs. Returns `nil` when the watch took the pump over meanwhile (the job blocked the pump for the
  /// stall timeout): this thread then leaves the scope to the pump that replaced it.
  private func runWatched<Result>(_ token: UInt64, _ body: () -> Result) -> Result? {
    pumpJob.store(token, ordering: .releasing)
    let result = ScopeWorkSlot.run(in: self, body)
    guard pumpJob.compareExchange(expected: token, desired: 0, ordering: .acquiringAndReleasing).exchanged else {
      // The blocked job returned after the watch took the pump over (see pumpBlocked).
      if abandonedJobs.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 { scheduler.wakePump() }
      return nil
    }
    return result
  }

  /// The watch found the pump running the job shown by `token` for the stall timeout: unless that job
  /// has ended meanwhile, the failure is reported at once (on the test that owns the scope) and a new
  /// pump thread takes the scope over, so the work the blocked job waits for can run and the test can
  /// end. The clock does not wait for the blocked job (it most likely waits for the clock), but no stall
  /// is declared while it still runs: what it does next may be what the scope's tasks await. Called on
  /// the watch's queue.
  func pumpBlocked(token: UInt64) {
    abandonedJobs.add(1, ordering: .sequentiallyConsistent)
    guard
      pumpJob.compareExchange(expected: token, desired: Self.pumpTakenOver, ordering: .acquiringAndReleasing)
        .exchanged
    else {
      abandonedJobs.subtract(1, ordering: .sequentiallyConsistent)
      PumpWatch.shared.watch(self)  // The job ended as the watch looked: watch the pump again.
      return
    }
    let generation = pumpGenerations.add(1, ordering: .relaxed).newValue
    pumpJob.store(0, ordering: .releasing)
    PumpThreads.shared.run(named: "TestScheduler '\(scheduler.name)' capturing scope") { [self] in
      runPump(generation: generation)
    }
    PumpWatch.shared.watch(self)
    reportBlockedPump()
  }

  /// What ``pumpJob`` holds once the watch has taken the pump over (no pump's token).
  static let pumpTakenOver = UInt64.max

  /// The task a piece of work is a job of (0 for other work).
  private static func taskID(of work: Work) -> UInt64 {
    switch work {
    case .taskJob(let job), .job(let job): TaskIdentity.taskID(of: job)
    case .runnable(let runnable as MainActorJob): TaskIdentity.taskID(of: runnable.job)
    default: 0
    }
  }
}
