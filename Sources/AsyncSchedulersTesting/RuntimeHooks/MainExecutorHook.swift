import AsyncSchedulers
import Synchronization

/// The Swift runtime's main-executor lookup hook (`swift_task_getMainExecutor_hook`), installed only
/// while a `capturingAllTasks` scope is active, so the scope's main-actor code runs on its scheduler.
///
/// On Swift 6.3 main-actor jobs never pass an enqueue hook, but every hop to the main actor (a
/// `@MainActor` method called from elsewhere, a `Task {}` created on the main actor, a continuation
/// resumed onto it) asks the runtime which executor *is* the main actor's. For the scope's own code,
/// the answer becomes the scheduler's main-actor face (``TestSchedulerMainExecutor``): its jobs join the
/// scheduler's FIFO, and run with the real main queue held (see `MainQueueExclusion`), so
/// `MainActor.assumeIsolated` and `dispatchPrecondition(condition: .onQueue(.main))` hold in them.
///
/// Code that is a scope's: code its scheduler is running (its pump or a driving call on this thread),
/// and tasks carrying the scope's ``CaptureMarker`` (see ``ActiveScopes``). Everything else (other
/// tests, the app) gets the runtime's own answer, so the real main actor's isolation checks are
/// untouched.
enum MainExecutorHook {
  typealias Original = @convention(thin) () -> UnownedSerialExecutor
  typealias Hook = @convention(thin) (Original) -> UnownedSerialExecutor
  typealias EnqueueMain = @convention(thin) (UnownedJob) -> Void

  /// The runtime's hook variable.
  private static let hook = RuntimeHook<Hook>(symbol: "swift_task_getMainExecutor_hook")
  /// The runtime's main-executor enqueue, to hand a job to the real main actor.
  private static let enqueueMain = runtimeFunction("swift_task_enqueueMainExecutor", as: EnqueueMain.self)

  /// Whether the runtime exports the hook and the main executor's enqueue.
  static var isAvailable: Bool { hook.isAvailable && enqueueMain != nil }

  /// Redirects the main actor of the scopes' code (see ``ActiveScopes``) until ``uninstall()``.
  static func install() { hook.install { original in MainExecutorHook.mainExecutor(original: original) } }

  /// Puts back the hook that was installed before ``install()``.
  static func uninstall() { hook.uninstall() }

  /// Hands `job` to the real main actor (a job that reached a scheduler's main-actor face after its
  /// scope ended).
  static func enqueueOnRealMainActor(_ job: UnownedJob) {
    guard let enqueueMain else {
      fatalError("swift_task_enqueueMainExecutor is missing, yet a main-actor job was redirected")
    }
    enqueueMain(job)
  }

  private static func mainExecutor(original: Original) -> UnownedSerialExecutor {
    if let record = ActiveScopes.shared.scopeOfCallingCode() {
      return record.scheduler.mainExecutor.asUnownedSerialExecutor()
    }
    if let previous = hook.previous { return previous(original) }
    return original()
  }
}
