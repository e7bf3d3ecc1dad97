import AsyncSchedulers
import Dispatch

/// The calls a capturing scope makes on its scheduler: the seam between the scope (its rules, its
/// pump, the runtime hooks behind it) and the scheduler's state; the scheduler's side of it is
/// ``CapturingScope``. Each takes the scheduler's lock once
/// and acts after releasing it (wakes the blocked pump, resumes callers of `settle()`).
extension TestScheduler {
  /// Starts capturing for `scope`; returns the virtual instant it began at.
  func beginCapturing(_ scope: any CapturingScope) -> SchedulerInstant {
    let change = state.withCriticalRegion { state in
      defer { isCapturingHint.store(true, ordering: .releasing) }
      return state.beginCapturing(scope)
    }
    if change.wake { wakeup.signal() }
    return change.start
  }

  /// Stops capturing: the pump stops at its next step, callers of `settle()` go on.
  func endCapturing() {
    let (change, scope) = state.withCriticalRegion { state in
      defer { isCapturingHint.store(false, ordering: .releasing) }
      return state.endCapturing()
    }
    withExtendedLifetime(scope) {}
    if change.wake { wakeup.signal() }
    for waiter in change.settled { waiter.resume() }
  }

  /// Whether scope `id` captures now.
  func isCapturing(scope id: UInt64) -> Bool { state.withCriticalRegion { $0.capturingScope == id } }

  /// The scope capturing now, if any (read under the lock, asked after it; with no lock while the
  /// scheduler captures for no scope, the common case of every job handed to it).
  var capturingScope: (any CapturingScope)? {
    guard isCapturingHint.load(ordering: .acquiring) else { return nil }
    return state.withCriticalRegion { $0.scope }
  }

  /// The pump's next step while scope `scope` captures.
  func pumpStep(scope: UInt64) -> TestSchedulerStateMachine.PumpStep {
    state.withCriticalRegion { $0.nextPumpStep(scope: scope) }
  }

  /// Blocks the pump (registered as the waiter by its last step) until work arrives, for at most
  /// `timeout` of real time (`nil`: as long as it takes). Returns `false` when the time ran out.
  func waitForWork(timeout: Duration?) -> Bool {
    let deadline =
      timeout.map { SchedulerInstant.uptimeNow.advanced(by: max($0, .zero)).dispatchTime } ?? .distantFuture
    guard wakeup.wait(timeout: deadline) == .timedOut else { return true }
    state.withCriticalRegion { $0.stopWaiting() }
    return false
  }

  /// After ``waitForWork(timeout:)`` ran out: blocks the pump again until work arrives or `isOver`
  /// holds (whoever makes it hold then calls ``wakePump()``), for at most `timeout` of real time.
  /// Returns `true` when work is ready.
  func waitForWork(orUntil isOver: () -> Bool, timeout: Duration) -> Bool {
    let deadline = SchedulerInstant.uptimeNow.advanced(by: max(timeout, .zero)).dispatchTime
    while true {
      guard state.withCriticalRegion({ $0.blockUntilWorkArrives() }) else { return true }
      if isOver() || wakeup.wait(timeout: deadline) == .timedOut {
        state.withCriticalRegion { $0.stopWaiting() }
        return false
      }
    }
  }

  /// Fires the earliest timer, moving the clock to its deadline, when nothing is ready and no driving
  /// call runs. Called after the pump's step found nothing ready (the pump is registered as the blocked
  /// waiter): it stays registered unless it goes on running, so work arriving meanwhile wakes it.
  func fireNextTimerForPump() -> PumpTimerStep {
    let (step, timer) = state.withCriticalRegion { state -> (PumpTimerStep, ScheduledTimer?) in
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
    if let timer { fire(timer) }
    return step
  }

  /// What the pump needs to describe a stall: whether timers could fire, and what is pending; `nil`
  /// when it is no stall (work is ready, or the body drives the scheduler).
  func stallFacts() -> (hasTimers: Bool, pending: PendingWorkSnapshot)? {
    state.withCriticalRegion { state in
      guard state.queues.readyCount == 0, !state.isDriving else { return nil }
      return (state.hasFiringTimer, state.pendingSnapshot())
    }
  }

  /// What is pending, copied under the lock.
  func pendingSnapshot() -> PendingWorkSnapshot { state.withCriticalRegion { $0.pendingSnapshot() } }

  /// Queues a captured global job of scope `scope`; `false`, queuing nothing, once that scope ended.
  func queueCapturedJob(_ job: UnownedJob, scope: UInt64) -> Bool {
    let work = Work.taskJob(job)
    let lane = explorationLane(of: work)
    return admit(forScope: scope) { $0.enqueue(work, lane: lane, .captured) }
  }

  /// Adds a timer of scope `id`'s code at `deadline` (a Dispatch timer its code armed, from any
  /// thread): never an escape. Returns the timer (disposing it removes it), or `nil`, adding nothing,
  /// once that scope ended.
  func queueScopeTimer(scope id: UInt64, at deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void)
    -> ScheduledTimer?
  {
    let timer = ScheduledTimer(owner: timerOwner, action)
    return admit(forScope: id) { $0.addTimer(timer, at: deadline, .captured) } ? timer : nil
  }

  /// Queues work of scope `id`'s code (main-queue work it handed to Dispatch, from any thread): never an
  /// escape. Returns `false`, queuing nothing, once that scope ended.
  func queueScopeWork(scope id: UInt64, runnable job: any RunnableJob) -> Bool {
    let work = Work.runnable(job)
    let lane = explorationLane(of: work)
    return admit(forScope: id) { $0.enqueue(work, lane: lane, .captured) }
  }

  /// Hands work of scope `id` over with `admit`, in one critical region that first checks the scope
  /// still captures; wakes the blocked pump when told to. Returns `false`, handing nothing over, once
  /// that scope ended.
  private func admit(
    forScope id: UInt64,
    _ admit: (inout TestSchedulerStateMachine) -> TestSchedulerStateMachine.Admission
  ) -> Bool {
    let admission = state.withCriticalRegion { state -> TestSchedulerStateMachine.Admission? in
      state.capturingScope == id ? admit(&state) : nil
    }
    guard let admission else { return false }
    if admission.wake { wakeup.signal() }
    return true
  }

  /// Wakes the pump if it is blocked waiting (outside work it waited for has finished).
  func wakePump() {
    if state.withCriticalRegion({ $0.takeBlockedWaiter() }) { wakeup.signal() }
  }

  /// Queues the scope's own machinery (it runs on the pump, never an escape).
  func queueScopeWork(_ work: @escaping @Sendable () -> Void) {
    let admission = state.withCriticalRegion { $0.enqueue(.closure(work), lane: (.scheduler, 0)) }
    if admission.wake { wakeup.signal() }
  }

  /// Starts making ordering choices (the scope's body runs), or stops (it returned).
  func setExploring(_ active: Bool) { state.withCriticalRegion { $0.setExploring(active) } }

  /// Takes the ready jobs of tasks out of the queue at the end of a scope (global and main-actor
  /// ones): nothing would drive them here, so the scope hands them back to the runtime's executors and
  /// a task that outlives the scope is never stranded.
  func takeStrandedTaskJobs() -> (global: [UnownedJob], main: [UnownedJob]) {
    state.withCriticalRegion { $0.takeTaskJobs() }
  }
}

/// What firing the next timer for a capturing scope's pump found.
package enum PumpTimerStep: Equatable {
  /// A timer fired, and the clock moved to its deadline.
  case fired
  /// Work became ready meanwhile: the pump runs it first.
  case workArrived
  /// No timer can fire (none is pending, or a driving call of the body runs).
  case nothing
}
