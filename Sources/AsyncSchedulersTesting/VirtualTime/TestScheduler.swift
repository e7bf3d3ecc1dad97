import AsyncSchedulers
import Dispatch
import Synchronization

/// A deterministic virtual-time scheduler: the executor *and* the clock of the code under test.
///
/// Tasks started with `Task(executorPreference: scheduler)`, actors whose executor it is, and what they
/// spawn (`async let`, task-group children) run only when the test drives the scheduler, on the test's
/// thread, one job at a time. Sleeping on it (`scheduler.sleep(for:)`,
/// ``/AsyncSchedulers/Scheduler/ticks(every:leeway:startingAt:)``) registers a timer in its heap;
/// callback work (`schedule`, timers) shares the same timeline. Nothing happens in the background: no
/// `Task.yield()` loops, no real-time sleeps, no polling.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let task = Task(executorPreference: scheduler) {
///   try await scheduler.sleep(for: .seconds(1))
///   return "done"
/// }
/// scheduler.advance(by: .seconds(1))   // runs the task to completion, synchronously
/// ```
///
/// ## Semantics
/// - Driving calls (``advance(by:fileID:filePath:line:column:)``,
///   ``advance(to:fileID:filePath:line:column:)``, ``run(maximumSteps:fileID:filePath:line:column:)``,
///   ``step(fileID:filePath:line:column:)``) first run the ready work, then fire timers in (deadline,
///   scheduling order); `now` is set to each timer's deadline while it and the work it wakes run. Work
///   created meanwhile that is due by the target runs in the same call. The clock ends exactly at the
///   target.
/// - A timer or sleep due at ``/AsyncSchedulers/SchedulerInstant/distantFuture`` (where every huge delay
///   saturates) never fires: no driving call, not even `run()` or `step()`, moves the clock there. It stays
///   pending until disposed, and a sleep until then lasts until its task is cancelled.
/// - Dropping the scheduler frees it and its pending timers (with what their closures captured): pending
///   work does not keep a test scheduler alive, since nothing would ever drive it.
/// - Equal deadlines run in the order they were scheduled; a repeating timer keeps its original place
///   among equal deadlines and re-arms from its scheduled time (no drift).
/// - Time never moves backwards: advancing to the past fails the test and changes nothing.
/// - `sleep(until:)` with a deadline that is not in the future returns at once, without waiting for the
///   next advance (like `ContinuousClock` and a suspending `Task.sleep`).
/// - Driving calls may not nest (a job must not call `advance`); a nested call fails the test and returns.
/// - Driving calls never hang on runaway work: one that runs ``maximumJobsPerInstant`` jobs without the
///   clock moving (a callback rescheduling itself at once, a polling loop) stops and fails the test,
///   naming the kinds of work that ran; the rest stays pending.
///
/// ## Staying deterministic
/// Keep all code under test on this scheduler: start tasks with `executorPreference: scheduler`, bind
/// actors to it, take time from it (a plain `Task.sleep` in a task on it is virtual too). Work that
/// escapes to another executor (a bare `Task {}`, a `Task.detached`, a continuation resumed by another
/// thread) runs at the mercy of the real machine: when it comes back is not decided by the scheduler. Wait for it with
/// ``runUntil(timeout:_:fileID:filePath:line:column:)``, which blocks on the arrival of work with a
/// real-time bound, never a fixed sleep. Do not `await` work bound to the scheduler from the test itself
/// without driving it: the test's own task would wait for a `run()` that never comes.
public final class TestScheduler: Scheduler, SerialExecutor, RunnableJobSubmitting, Sendable {
  /// A name for failure messages.
  public let name: String
  /// The scheduler of the running test under the `.virtualTime` trait (and of code the test's tasks
  /// run); `nil` outside such a test. A task-local: tasks the test starts inherit it.
  @TaskLocal public static var current: TestScheduler?
  let state: Mutex<TestSchedulerStateMachine>
  let wakeup = DispatchSemaphore(value: 0)
  /// When tasks' recent jobs started, in real time (see `noteJobStart(_:)`).
  let jobStarts = TaskJobStarts()
  /// Whether task jobs' start times are noted for the deadline recovery of plain sleeps (see
  /// `TaskJobStarts`): not while a capturing scope whose clock reads are virtual runs, where a sleep's
  /// deadline is exact by construction and the bookkeeping would be a cost per job with no use.
  let notesJobStarts = Atomic<Bool>(true)
  /// How many failures this scheduler has reported (a run exploring orderings failed when it rose).
  let issuesReported = Atomic<Int>(0)
  /// Whether this scheduler explores orderings (set once, before any work, by the exploring run): work
  /// queued then carries its lane.
  let exploresOrderings = Atomic<Bool>(false)
  /// The background tasks of the running capturing scope (`nil` when none runs); see
  /// ``backgroundTask(fileID:filePath:line:column:_:)``.
  let backgroundTasks = Mutex<[Task<Void, Never>]?>(nil)
  /// The executor actors bound to this scheduler use.
  let serialExecutor = TestSchedulerSerialExecutor()
  /// The address of the executor the main actor of a capturing scope's code runs on (made by the first
  /// scope; 0 before). The executor is immortal, so its address is all that needs keeping: reading it is
  /// one atomic load, with no reference count and no generic container (this is read on every
  /// main-actor job and every main-actor hop of a scope's code).
  private let mainExecutorAddress = Atomic<UInt>(0)
  /// Whether a scope captures this scheduler: set and cleared in the critical regions that begin and
  /// end capturing, read without the lock by ``capturingScope`` (a job handed over while it changes is
  /// ordered before or after the change, as the lock would order it).
  let isCapturingHint = Atomic<Bool>(false)
  /// The executor the main actor of a capturing scope's code runs on.
  var mainExecutor: TestSchedulerMainExecutor {
    let address = mainExecutorAddress.load(ordering: .acquiring)
    if address != 0 { return Self.mainExecutor(at: address) }
    let made = TestSchedulerMainExecutor.makeImmortal(for: self)
    let madeAddress = UInt(bitPattern: Unmanaged.passUnretained(made).toOpaque())
    let (exchanged, original) = mainExecutorAddress.compareExchange(
      expected: 0, desired: madeAddress, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
    if exchanged { return made }
    made.detach()  // Another thread made one first: this one is never used.
    return Self.mainExecutor(at: original)
  }

  private static func mainExecutor(at address: UInt) -> TestSchedulerMainExecutor {
    Unmanaged<TestSchedulerMainExecutor>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).takeUnretainedValue()
  }
  /// What this scheduler's timers point back to (weakly, so pending timers do not keep it alive).
  let timerOwner = TestSchedulerTimerOwner()
  /// How many jobs of a main-actor stand-in run now (see ``TestSchedulerMainStandIn``).
  let mainStandInRunning = TestSchedulerMainStandIn.RunningCount()
  /// The callbacks of its main-actor stand-ins waiting for their drain job, for the stand-ins that run
  /// inline when idle and for those that never do (two real schedulers, two workers).
  let mainStandInBatches = (inline: MainStandInBatch(), async: MainStandInBatch())
  /// The context of the Swift Testing test that created the scheduler, for failures found on a thread
  /// outside it (`nil` outside Swift Testing and inside a capturing scope).
  let owningTest: OwningTestRelay?

  /// Creates a scheduler whose virtual clock starts at `now` (by default
  /// ``/AsyncSchedulers/SchedulerInstant/zero``).
  ///
  /// `maximumJobsPerInstant` bounds runaway work: a driving call that runs that many jobs (callbacks,
  /// task and actor jobs, timers) without the clock moving stops, fails the test with a message naming
  /// the kinds of work that ran and listing what is pending, and leaves the rest pending.
  ///
  /// `stallTimeout` bounds how long a task may wait, in real time, for a task or actor job parked here
  /// while nothing has ever driven the scheduler (outside a capturing scope): then the scheduler fails
  /// the test with a message naming the two fixes and runs the ready work, so the test ends instead of
  /// hanging. Once the test has driven the scheduler, work it leaves pending is its own choice
  /// (``expectNoPendingWork(fileID:filePath:line:column:)`` reports it).
  /// - Precondition: `maximumJobsPerInstant >= 1`.
  ///
  /// The source location (by default, the caller's) is where failures the scheduler finds on its own
  /// (a stall nothing drives) are reported.
  public convenience init(
    name: String = "TestScheduler", now: SchedulerInstant = .zero, maximumJobsPerInstant: Int = 100_000,
    stallTimeout: Duration = .seconds(10),
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) {
    self.init(
      name: name, now: now, maximumJobsPerInstant: maximumJobsPerInstant, stallTimeout: stallTimeout,
      acceptsCallbacksFromAnyThread: false,
      creation: SourcePlace(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Creates a scheduler; with `acceptsCallbacksFromAnyThread`, callback work (callbacks, timers,
  /// bridged blocks) handed over from any thread simply waits for the next driving call and is never
  /// reported as an escape: ReactiveObjC's `RACTestScheduler` semantics, where blocks scheduled from a
  /// background scheduler wait for `step` (task and actor jobs are still checked).
  package init(
    name: String, now: SchedulerInstant, maximumJobsPerInstant: Int, stallTimeout: Duration,
    acceptsCallbacksFromAnyThread: Bool,
    creation: SourcePlace = SourcePlace(fileID: #fileID, filePath: #filePath, line: #line, column: #column)
  ) {
    self.creation = creation
    checkArgument(
      maximumJobsPerInstant >= 1,
      "TestScheduler: maximumJobsPerInstant must be at least 1 (got \(maximumJobsPerInstant))")
    self.name = name
    self.stallTimeout = max(stallTimeout, .zero)
    self.acceptsCallbacksFromAnyThread = acceptsCallbacksFromAnyThread
    self.state = Mutex(
      TestSchedulerStateMachine(now: now, maximumJobsPerInstant: maximumJobsPerInstant, creator: .current))
    owningTest = OwningTestRelay.forCallingTest()
    serialExecutor.scheduler = self
    timerOwner.attach(self)
  }

  deinit {
    timerOwner.detach()
    let address = mainExecutorAddress.load(ordering: .acquiring)
    if address != 0 { Self.mainExecutor(at: address).detach() }
  }

  /// Where the scheduler was created: where failures it finds on its own are reported.
  let creation: SourcePlace

  /// Whether callback work from any thread is accepted without an escape report (RACTestScheduler).
  let acceptsCallbacksFromAnyThread: Bool

  /// How long a task may wait for a job parked here while nothing has ever driven the scheduler
  /// (outside a capturing scope) before the scheduler reports the stall and runs the ready work.
  public let stallTimeout: Duration

  /// The most jobs one driving call runs at one instant before it stops and reports runaway work.
  public var maximumJobsPerInstant: Int { state.withCriticalRegion { $0.maximumJobsPerInstant } }

  // MARK: Clock

  /// The virtual current instant. During a driving call it is the deadline of the timer being run.
  public var now: SchedulerInstant { state.withCriticalRegion { $0.now } }
}
extension TestScheduler: ActorScheduler {}
extension TestScheduler: VirtualTimeline {}
