/// The one door to the Swift runtime and the C libraries below it: every hook the capturing scopes
/// install, with one answer to whether they can work here, installed and removed together.
///
/// Nothing outside this folder calls `dlsym`, patches a function slot or bit-casts a runtime object:
/// the scope (see `ActiveScopes`) asks here. What each piece relies on:
///
/// | piece | relies on | where |
/// | --- | --- | --- |
/// | ``GlobalEnqueueHook`` | `swift_task_enqueueGlobal_hook`, `swift_task_enqueueGlobal` | every platform |
/// | ``MainExecutorHook`` | `swift_task_getMainExecutor_hook`, `swift_task_enqueueMainExecutor` | every platform |
/// | ``TaskIdentity`` | `swift_task_getJobTaskId` | every platform |
/// | ``ClockReadHook`` | the concurrency library's `clock_gettime` import (an ELF `JUMP_SLOT`) | Linux |
/// | ``DispatchTimerHook`` | the concurrency library's `dispatch_after_f` and `dispatch_source_set_timer` imports | Linux |
/// | ``DispatchQueueHook`` | the Dispatch overlay's queue, group, time and timer-source imports | Linux |
///
/// When a required piece is missing, `capturingAllTasks` fails the test with the missing symbols named
/// and runs the body uncaptured: never a silent fallback to real time. The Linux-only pieces are what
/// makes clock reads virtual; where they are missing (Darwin), plain sleeps' deadlines are recovered
/// by the heuristic of `DeadlineRecovery`, and Dispatch's own timers stay real (reported, see
/// `DispatchQueueHook`).
enum RuntimeHooks {
  /// What the scopes need of the runtime, and what is missing.
  struct Availability: Sendable {
    /// The symbols a capturing scope cannot work without that this runtime does not export (empty:
    /// scopes work).
    var missing: [String]
    /// Whether clock reads (`ContinuousClock.now`, `SuspendingClock.now`, `DispatchTime.now()`) in a
    /// scope's code read its virtual clock, and plain sleeps handed to Dispatch land on it.
    var virtualClockReads: Bool
  }

  /// The answer for this process (looked up once).
  static let availability: Availability = {
    var missing: [String] = []
    if !GlobalEnqueueHook.isAvailable { missing.append("swift_task_enqueueGlobal_hook") }
    if !MainExecutorHook.isAvailable { missing.append("swift_task_getMainExecutor_hook") }
    if !TaskIdentity.isAvailable { missing.append("swift_task_getJobTaskId") }
    return Availability(
      missing: missing, virtualClockReads: ClockReadHook.isAvailable)
  }()

  /// Installs every hook (the first scope begins). Called under the scopes' installation lock.
  static func install() {
    GlobalEnqueueHook.install()
    MainExecutorHook.install()
    ClockReadHook.install()
    DispatchTimerHook.install()
    DispatchQueueHook.install()
  }

  /// Puts back what was there before every hook (the last scope ended). Called under the same lock.
  static func uninstall() {
    GlobalEnqueueHook.uninstall()
    MainExecutorHook.uninstall()
    ClockReadHook.uninstall()
    DispatchTimerHook.uninstall()
    DispatchQueueHook.uninstall()
  }

  /// Hands a job back to the runtime's global executor (a task of a scope that ended with its job queued).
  static func enqueueOnGlobalExecutor(_ job: UnownedJob) { GlobalEnqueueHook.enqueueOnGlobalExecutor(job) }

  /// Hands a job to the real main actor (a main-actor job that reached a scheduler after its scope ended).
  static func enqueueOnRealMainActor(_ job: UnownedJob) { MainExecutorHook.enqueueOnRealMainActor(job) }
}
