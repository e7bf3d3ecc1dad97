import AsyncSchedulers
import Synchronization

/// What stands in, inside a capturing scope, for a real main-actor scheduler that the scope's code names
/// directly (the Rx bridge's `MainScheduler.instance`): the scope's ``TestScheduler``, whose work runs
/// isolated to the main actor.
///
/// Its callbacks and timers join the scheduler's one FIFO and its virtual clock; each runs with the
/// real main queue held (as the scope's captured main-actor jobs do), so `MainActor.assumeIsolated` and
/// main-queue checks hold in them. When the real scheduler runs inline when idle, so does this one: a
/// callback scheduled by main-actor code of the scope while no job is ready and none of its own runs
/// runs at once, as on a device. Made per call by the scope's provider (see `VirtualTimeStandIn`);
/// holds the scheduler strongly only while a scheduling call uses it.
final class TestSchedulerMainStandIn: Scheduler, Sendable {
  let scheduler: TestScheduler
  let runsInlineWhenIdle: Bool

  /// How many jobs of a scheduler's main-actor stand-ins run now: a box the wrapped actions capture
  /// instead of the scheduler (a pending timer's action must not keep its scheduler alive).
  final class RunningCount: Sendable {
    let value = Atomic<Int>(0)
  }

  init(scheduler: TestScheduler, runsInlineWhenIdle: Bool) {
    self.scheduler = scheduler
    self.runsInlineWhenIdle = runsInlineWhenIdle
  }

  var name: String { "\(scheduler.name) (main actor)" }
  var now: SchedulerInstant { scheduler.now }

  @discardableResult
  func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction {
    if runInlineIfIdle(action) { return .finished }
    let scheduled = ScheduledAction(action)
    batch(scheduled)
    return scheduled
  }

  func execute(_ action: @escaping @Sendable () -> Void) {
    if runInlineIfIdle(action) { return }
    batch(ScheduledAction(action))
  }

  @discardableResult
  func schedule(at deadline: SchedulerInstant, leeway: Duration, _ action: @escaping @Sendable () -> Void)
    -> ScheduledAction
  {
    scheduler.schedule(at: deadline, leeway: leeway, onMainActor(action))
  }

  func execute(at deadline: SchedulerInstant, leeway: Duration, _ action: @escaping @Sendable () -> Void) {
    scheduler.schedule(at: deadline, leeway: leeway, onMainActor(action))
  }

  @discardableResult
  func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    scheduler.scheduleRepeating(startingAt: start, every: interval, leeway: leeway, onMainActor(action))
  }

  func sleep(until deadline: SchedulerInstant, tolerance: Duration?) async throws {
    try await scheduler.sleep(until: deadline, tolerance: tolerance)
  }

  func enqueue(_ job: consuming ExecutorJob) { scheduler.enqueue(job) }

  /// Adds `scheduled` to the stand-ins' batch; the first one since the last drain queues the drain job
  /// (one main-queue job, as the real scheduler's worker is one main-queue block).
  private func batch(_ scheduled: ScheduledAction) {
    let batch = runsInlineWhenIdle ? scheduler.mainStandInBatches.inline : scheduler.mainStandInBatches.async
    guard batch.add(scheduled) else { return }
    scheduler.submit(runnable: MainQueueWork(ScheduledAction(onMainActor { batch.drain() })))
  }

  /// `action`, run with the main queue held, counted as this stand-in's running work.
  private func onMainActor(_ action: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
    let running = scheduler.mainStandInRunning
    return {
      MainQueueExclusion.run {
        running.value.add(1, ordering: .relaxed)
        defer { running.value.subtract(1, ordering: .relaxed) }
        action()
      }
    }
  }

  /// Runs `action` now when the real scheduler would: it runs inline when idle, the caller runs the
  /// scope's main-actor work, no job is ready and none of this stand-in's runs.
  private func runInlineIfIdle(_ action: @Sendable () -> Void) -> Bool {
    guard runsInlineWhenIdle, MainQueueExclusion.isHeld,
      scheduler.mainStandInRunning.value.load(ordering: .relaxed) == 0,
      scheduler.state.withCriticalRegion({ $0.queues.readyCount == 0 })
    else { return false }
    scheduler.mainStandInRunning.value.add(1, ordering: .relaxed)
    defer { scheduler.mainStandInRunning.value.subtract(1, ordering: .relaxed) }
    action()
    return true
  }
}
