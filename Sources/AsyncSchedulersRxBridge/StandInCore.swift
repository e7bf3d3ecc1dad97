import AsyncSchedulers

/// The real core of an Rx scheduler (a `MainActorScheduler`, `SerialScheduler` or
/// `ConcurrentScheduler`), seen through the virtual-time stand-in seam: each call goes to the real
/// core, unless the calling code belongs to a capturing scope of `AsyncSchedulersTesting`
/// (`@Test(.virtualTime)`, `capturingAllTasks`), whose scheduler then stands in for it, with the same
/// nature (main-actor work stays main-actor work). So RxSwift code that names `MainScheduler.instance`
/// or makes its own `SerialDispatchQueueScheduler` runs on the test's virtual clock, exact, with no
/// injection.
///
/// Each call decides on its own: work scheduled from outside every scope (another thread's callback,
/// the app) stays real. Costs one atomic load per call when no scope runs.
final class StandInCore: RunnableJobSubmitting, Sendable {
  /// The real core.
  let real: any Scheduler
  private let realRunnable: (any RunnableJobSubmitting)?
  private let role: VirtualTimeStandIn.Role

  /// `core` seen through the seam, or `core` itself when it is no real-time scheduler (a test
  /// scheduler, the trampoline, a custom scheduler).
  static func wrapping(_ core: any Scheduler) -> any Scheduler {
    if let main = core as? MainActorScheduler {
      return StandInCore(main, role: .mainActor(runsInlineWhenIdle: main.runsInlineWhenIdle))
    }
    if core is SerialScheduler || core is ConcurrentScheduler { return StandInCore(core, role: .background) }
    return core
  }

  private init(_ real: any Scheduler, role: VirtualTimeStandIn.Role) {
    self.real = real
    self.realRunnable = real as? any RunnableJobSubmitting
    self.role = role
  }

  /// Where this call goes: the scope's stand-in, or the real core.
  private var target: any Scheduler { VirtualTimeStandIn.standIn(for: role) ?? real }

  var name: String { real.name }
  var now: SchedulerInstant { target.now }

  @discardableResult
  func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction { target.schedule(action) }

  func execute(_ action: @escaping @Sendable () -> Void) { target.execute(action) }

  @discardableResult
  func schedule(at deadline: SchedulerInstant, leeway: Duration, _ action: @escaping @Sendable () -> Void)
    -> ScheduledAction
  {
    target.schedule(at: deadline, leeway: leeway, action)
  }

  func execute(at deadline: SchedulerInstant, leeway: Duration, _ action: @escaping @Sendable () -> Void) {
    target.execute(at: deadline, leeway: leeway, action)
  }

  @discardableResult
  func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    target.scheduleRepeating(startingAt: start, every: interval, leeway: leeway, action)
  }

  func sleep(until deadline: SchedulerInstant, tolerance: Duration?) async throws {
    try await target.sleep(until: deadline, tolerance: tolerance)
  }

  func enqueue(_ job: consuming ExecutorJob) { target.enqueue(job) }

  func submit(runnable job: consuming any RunnableJob) {
    let job = job
    guard let standIn = VirtualTimeStandIn.standIn(for: role) else {
      if let realRunnable { realRunnable.submit(runnable: job) } else { real.execute { job.runJob() } }
      return
    }
    standIn.execute { job.runJob() }
  }
}
