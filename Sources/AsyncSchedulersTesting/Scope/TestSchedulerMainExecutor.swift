import AsyncSchedulers
import Dispatch
import Synchronization

/// The main-actor face of a ``TestScheduler``: inside a capturing scope, the scope's main-actor code
/// (see `MainExecutorHook`) enqueues its jobs here. They join the scheduler's FIFO and run isolated to
/// this executor, which the runtime then takes for the main actor, with the real main queue held, so
/// main-thread checks hold too.
///
/// A job that arrives after its scope ended, or after its scheduler is gone, goes to the real main
/// actor: it runs as it would without the scope.
///
/// Immortal: the runtime keeps this executor's identity (unretained) in the tasks that hopped to it,
/// and a task cancelled or resumed after the test (a stopped poller's sleep) still enqueues here. So it
/// is never freed (one small object per scheduler that ran a scope), and it links its scheduler
/// unretained, as ``TestSchedulerTimerOwner`` does: the scheduler clears the link, under its lock,
/// first thing in its deinitializer.
final class TestSchedulerMainExecutor: SerialExecutor, Sendable {
  /// The scheduler while it lives. Unretained: while a caller holds this lock with a non-nil value,
  /// the scheduler's deinitializer waits in ``detach()`` before anything of it is destroyed.
  private let link = Mutex<Unmanaged<TestScheduler>?>(nil)
  /// The scheduler's name, for the isolation check's message (the scheduler may be gone).
  private let name: String

  /// A new executor linked to `scheduler`, never freed.
  static func makeImmortal(for scheduler: TestScheduler) -> TestSchedulerMainExecutor {
    let executor = TestSchedulerMainExecutor(name: scheduler.name)
    executor.link.withCriticalRegion { $0 = Unmanaged.passUnretained(scheduler) }
    _ = Unmanaged.passRetained(executor)  // The one retain never released.
    return executor
  }

  private init(name: String) { self.name = name }

  /// Unlinks the scheduler (first thing in its deinitializer): later jobs go to the real main actor.
  func detach() { link.withCriticalRegion { $0 = nil } }

  /// Queues `job` on the scheduler while its scope captures, else hands it to the real main actor.
  ///
  /// The scheduler is reached through its active scope (``ActiveScopes/activeScope(ofSchedulerAt:)``),
  /// which holds it strongly while the scope runs: the link gives only its address, never dereferenced
  /// here, so a scheduler whose last release races with the job is never touched, and no reference
  /// this call drops can end a scheduler while a lock of this executor is held.
  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let address = link.withCriticalRegion { $0.map { UInt(bitPattern: $0.toOpaque()) } }
    if let address, let record = ActiveScopes.shared.activeScope(ofSchedulerAt: address),
      record.scheduler.enqueueMainActor(job)
    {
      return
    }
    RuntimeHooks.enqueueOnRealMainActor(job)
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

  /// Whether the calling code runs a main-actor job of the linked scheduler.
  private var isRunningOnScheduler: Bool {
    guard MainQueueExclusion.isHeld else { return false }
    return link.withCriticalRegion { link in
      link?._withUnsafeGuaranteedRef { CurrentSchedulerSlot.isCurrent($0) } ?? false
    }
  }

  func isIsolatingCurrentContext() -> Bool? { isRunningOnScheduler }

  func checkIsolated() {
    checkArgument(isRunningOnScheduler, "Expected to run on the main actor of TestScheduler '\(name)'")
  }
}

/// One main-actor job of a capturing scope, queued in the scheduler's FIFO.
final class MainActorJob: RunnableJob {
  let job: UnownedJob
  /// Unretained: the job lives in the scheduler's FIFO and only the scheduler runs it.
  unowned(unsafe) let scheduler: TestScheduler

  init(_ job: UnownedJob, scheduler: TestScheduler) {
    self.job = job
    self.scheduler = scheduler
  }

  var isJobCancelled: Bool { false }

  /// A task's job, in failure messages.
  var role: RunnableJobRole { .taskJob }

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
  private static let held = ThreadSlot()

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
