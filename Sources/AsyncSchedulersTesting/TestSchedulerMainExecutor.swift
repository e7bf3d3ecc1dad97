import AsyncSchedulers
import Dispatch
import Synchronization

/// The main-actor face of a ``TestScheduler``: inside a capturing scope, the scope's main-actor code
/// (see `MainExecutorHook`) enqueues its jobs here. They join the scheduler's FIFO and run isolated to
/// this executor, which the runtime then takes for the main actor, with the real main queue held, so
/// main-thread checks hold too.
///
/// A job that arrives after its scope ended goes to the real main actor.
final class TestSchedulerMainExecutor: SerialExecutor, @unchecked Sendable {
  // Why @unchecked Sendable: `scheduler` is assigned once, in `TestScheduler.init`, before the
  // executor is reachable from any other thread, and never changes afterwards.
  unowned(safe) var scheduler: TestScheduler!

  init() {}

  func enqueue(_ job: consuming ExecutorJob) { scheduler.enqueueMainActor(UnownedJob(job)) }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

  func isIsolatingCurrentContext() -> Bool? { MainQueueExclusion.isHeld && CurrentSchedulerSlot.isCurrent(scheduler) }

  func checkIsolated() {
    checkArgument(
      MainQueueExclusion.isHeld && CurrentSchedulerSlot.isCurrent(scheduler),
      "Expected to run on the main actor of TestScheduler '\(scheduler.name)'")
  }
}

/// One main-actor job of a capturing scope, queued in the scheduler's FIFO.
final class MainActorJob: RunnableJob {
  let job: UnownedJob
  unowned(safe) let scheduler: TestScheduler

  init(_ job: UnownedJob, scheduler: TestScheduler) {
    self.job = job
    self.scheduler = scheduler
  }

  var isJobCancelled: Bool { false }

  func runJob() {
    let executor = scheduler.mainExecutor.asUnownedSerialExecutor()
    let taskExecutor = UnownedTaskExecutor(ordinary: scheduler)
    let scheduler = scheduler
    // `DispatchQueue.main.sync` runs the block on the calling thread when the main thread is parked in
    // `dispatchMain()`, but on the main thread itself when a run loop serves the main queue: the
    // scheduler marks whichever thread runs the job as its own.
    MainQueueExclusion.run {
      Schedulers.withCurrent(scheduler) {
        job.runSynchronously(isolatedTo: executor, taskExecutor: taskExecutor)
      }
    }
  }
}

/// Runs main-actor jobs of a capturing scope with the real main queue held: from another thread
/// through `DispatchQueue.main.sync`, so nothing else runs on the main actor meanwhile, and main-queue
/// checks (`dispatchPrecondition(condition: .onQueue(.main))`) hold in them. A job run while the queue
/// is already held by this thread (a driving call made from main-actor code) runs directly.
enum MainQueueExclusion {
  private static let held = ThreadFlag()

  /// Whether this thread runs a job with the main queue held.
  static var isHeld: Bool { held.isSet }

  /// The main queue, reached through a plain `DispatchQueue` value: the compiler takes a closure
  /// written for `DispatchQueue.main.sync` to be main-actor code and checks that isolation when it runs,
  /// while this one must run before the job it wraps claims the (redirected) main actor.
  private static let mainQueue: DispatchQueue = .main

  static func run(_ body: @Sendable () -> Void) {
    if held.isSet { return body() }
    mainQueue.sync(execute: { runHeld(body) })
  }

  private static func runHeld(_ body: () -> Void) {
    held.isSet = true
    defer { held.isSet = false }
    body()
  }
}
