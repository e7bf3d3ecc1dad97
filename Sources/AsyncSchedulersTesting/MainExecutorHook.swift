import AsyncSchedulers
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
/// Code that is the scope's: code the scheduler is running (its pump or a driving call on this
/// thread), and tasks carrying the scope's ``CaptureMarker``. Everything else (other tests, the app)
/// gets the runtime's own answer, so the real main actor's isolation checks are untouched.
enum MainExecutorHook {
  typealias Original = @convention(thin) () -> UnownedSerialExecutor
  typealias Hook = @convention(thin) (Original) -> UnownedSerialExecutor
  typealias EnqueueMain = @convention(thin) (UnownedJob) -> Void

  /// The scope whose main-actor code is redirected, and the hook that was installed before ours.
  struct Route: Sendable {
    let scheduler: TestScheduler
    let scope: UInt64
    let previous: Hook?
  }

  /// `@unchecked Sendable`: the pointers are looked up once and the hook variable is only written
  /// while the process-wide ``CaptureLock`` is held (by the one active scope).
  private struct Symbols: @unchecked Sendable {
    let hook: UnsafeMutablePointer<Hook?>?
    let enqueueMain: EnqueueMain?
  }

  private static let symbols: Symbols = {
    let process = dlopen(nil, RTLD_NOW)
    return Symbols(
      hook: dlsym(process, "swift_task_getMainExecutor_hook")?.assumingMemoryBound(to: Hook?.self),
      enqueueMain: dlsym(process, "swift_task_enqueueMainExecutor").map { unsafeBitCast($0, to: EnqueueMain.self) })
  }()

  private static let route = Mutex<Route?>(nil)

  /// Whether the runtime exports the hook and the main executor's enqueue.
  static var isAvailable: Bool { symbols.hook != nil && symbols.enqueueMain != nil }

  /// Redirects the main actor of `scope`'s code to `scheduler` until ``uninstall()``. Call with the
  /// ``CaptureLock`` held.
  static func install(scheduler: TestScheduler, scope: UInt64) {
    guard let pointer = symbols.hook else { return }
    route.withCriticalRegion { $0 = Route(scheduler: scheduler, scope: scope, previous: pointer.pointee) }
    pointer.pointee = { original in MainExecutorHook.mainExecutor(original: original) }
  }

  /// Puts back the hook that was installed before ``install(scheduler:scope:)``.
  static func uninstall() {
    guard let pointer = symbols.hook else { return }
    let previous = route.withCriticalRegion { route -> Hook? in
      defer { route = nil }
      return route?.previous
    }
    pointer.pointee = previous
  }

  /// Hands `job` to the real main actor (a job that reached the scheduler's main-actor face after its
  /// scope ended).
  static func enqueueOnRealMainActor(_ job: UnownedJob) {
    guard let enqueueMain = symbols.enqueueMain else {
      preconditionFailure("swift_task_enqueueMainExecutor is missing, yet a main-actor job was redirected")
    }
    enqueueMain(job)
  }

  /// Whether the calling code belongs to the active scope (see the type's documentation).
  static func isInScope(_ route: Route) -> Bool {
    CurrentSchedulerSlot.isCurrent(route.scheduler) || CaptureMarker.scope == route.scope
  }

  private static func mainExecutor(original: Original) -> UnownedSerialExecutor {
    guard let route = route.withCriticalRegion({ $0 }) else { return original() }
    if isInScope(route) { return route.scheduler.mainExecutor.asUnownedSerialExecutor() }
    if let previous = route.previous { return previous(original) }
    return original()
  }
}
