import AsyncSchedulers
import Synchronization

/// The Swift runtime's global-executor enqueue hook (`swift_task_enqueueGlobal_hook`), installed only
/// while a `capturingAllTasks` scope is active, to route the scope's global jobs to its scheduler.
///
/// The runtime exports the hook as a writable C variable with no Swift declaration: it is looked up
/// with `dlsym` and written through a pointer. It is process-wide, so every global enqueue in the
/// process passes through it while it is installed; jobs that do not belong to the scope are handed to
/// the hook that was there before (or the runtime's own enqueue) unchanged.
enum GlobalEnqueueHook {
  typealias Original = @convention(thin) (UnownedJob) -> Void
  typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

  /// The runtime's hook variable, routed to the active scope.
  private static let hook = RuntimeHook<Hook>(symbol: "swift_task_enqueueGlobal_hook")

  /// The runtime's global enqueue (`swift_task_enqueueGlobal`), to hand a job back to the global executor.
  private static let enqueueGlobal = runtimeFunction(
    "swift_task_enqueueGlobal", as: (@convention(thin) (UnownedJob) -> Void).self)

  /// Hands `job` to the global executor (a task of a scope that ended with its job still queued).
  /// Call with no hook of a scope installed.
  static func enqueueOnGlobalExecutor(_ job: UnownedJob) {
    guard let enqueueGlobal else {
      fatalError("swift_task_enqueueGlobal is missing, yet a global job was captured")
    }
    enqueueGlobal(job)
  }

  /// Whether the runtime exports the hook.
  static var isAvailable: Bool { hook.isAvailable }

  /// Routes the global jobs of `scope` to `scheduler` until ``uninstall()``. Call with the
  /// ``CaptureLock`` held.
  static func install(scheduler: TestScheduler, scope: UInt64) {
    hook.install(
      { job, original in GlobalEnqueueHook.enqueue(job, original: original) }, scheduler: scheduler, scope: scope)
  }

  /// Puts back the hook that was installed before ``install(scheduler:scope:)``.
  static func uninstall() { hook.uninstall() }

  /// Decides where one global job goes. Jobs enqueued by code the scope's scheduler is running (its
  /// pump, or a driving call made from the scope) are the scope's: they go to the scheduler. Jobs
  /// enqueued by a task that carries the scope's marker but runs elsewhere belong to a task of the
  /// scope that escaped it (woken by `Task.sleep`, a real timer or another thread): they go to the
  /// scheduler too, and the escape is recorded. Everything else (other tests' work) goes on as before.
  private static func enqueue(_ job: UnownedJob, original: Original) {
    guard let route = hook.activeRoute else { return original(job) }
    if CurrentSchedulerSlot.isCurrent(route.scheduler) {
      route.scheduler.capture(job, escaped: false)
    } else if CaptureMarker.scope == route.scope {
      route.scheduler.capture(job, escaped: true)
    } else if let previous = route.previous {
      previous(job, original)
    } else {
      original(job)
    }
  }
}

/// The task-local mark of the tasks started in a capturing scope (inherited by child tasks and
/// unstructured tasks, not by `Task.detached`), so the hook recognizes them when they run elsewhere.
enum CaptureMarker {
  @TaskLocal static var scope: UInt64 = 0
}
