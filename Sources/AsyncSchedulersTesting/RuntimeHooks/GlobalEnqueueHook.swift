import AsyncSchedulers
import Synchronization

/// The Swift runtime's global-executor enqueue hook (`swift_task_enqueueGlobal_hook`), installed while
/// a `capturingAllTasks` scope is active, to route the scopes' global jobs to their schedulers.
///
/// The runtime exports the hook as a writable C variable with no Swift declaration: it is looked up
/// with `dlsym` and written through a pointer. It is process-wide, so every global enqueue in the
/// process passes through it while it is installed; jobs that belong to no scope (see
/// ``ActiveScopes``) are handed to the hook that was there before (or the runtime's own enqueue)
/// unchanged.
enum GlobalEnqueueHook {
  typealias Original = @convention(thin) (UnownedJob) -> Void
  typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

  /// The runtime's hook variable.
  private static let hook = RuntimeHook<Hook>(symbol: "swift_task_enqueueGlobal_hook")

  /// The runtime's global enqueue (`swift_task_enqueueGlobal`), to hand a job back to the global executor.
  private static let enqueueGlobal = runtimeFunction(
    "swift_task_enqueueGlobal", as: (@convention(thin) (UnownedJob) -> Void).self)

  /// Hands `job` to the global executor (a task of a scope that ended with its job still queued).
  static func enqueueOnGlobalExecutor(_ job: UnownedJob) {
    guard let enqueueGlobal else {
      fatalError("swift_task_enqueueGlobal is missing, yet a global job was captured")
    }
    enqueueGlobal(job)
  }

  /// Whether the runtime exports the hook.
  static var isAvailable: Bool { hook.isAvailable }

  /// Routes global jobs through ``ActiveScopes`` until ``uninstall()``.
  static func install() { hook.install { job, original in GlobalEnqueueHook.enqueue(job, original: original) } }

  /// Puts back the hook that was installed before ``install()``.
  static func uninstall() { hook.uninstall() }

  /// Decides where one global job goes (see ``ActiveScopes/route(_:)``): a scope's job goes to its
  /// scheduler; everything else (other tests' work) goes on as before.
  private static func enqueue(_ job: UnownedJob, original: Original) {
    if case .scope(let scope, let escaped) = ActiveScopes.shared.route(job), scope.capture(job, escaped: escaped) {
      return
    }
    if let previous = hook.previous { previous(job, original) } else { original(job) }
  }
}

/// The task-local mark of the tasks started in a capturing scope (inherited by child tasks and
/// unstructured tasks, not by `Task.detached`), so the hooks recognize code of the scope running on
/// another executor.
enum CaptureMarker {
  @TaskLocal static var scope: UInt64 = 0
}
