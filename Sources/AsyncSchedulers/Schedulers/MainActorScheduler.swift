import Dispatch

/// A scheduler bound to the `MainActor` (RAC `+mainThreadScheduler`, Rx `MainScheduler`, ReactiveSwift
/// `UIScheduler`).
///
/// Its jobs run on the main queue, which is the main actor's executor on every platform, so callbacks
/// may use `MainActor.assumeIsolated`. Its task executor runs tasks isolated to the main actor. Actors
/// that want the main actor use `@MainActor`; ``unownedSerialExecutor`` is the main actor's executor.
///
/// Two behaviours:
/// - ``shared`` (and `MainActorScheduler()`): always asynchronous, like RAC's main-thread scheduler.
/// - `MainActorScheduler(runsInlineWhenIdle: true)`: ``schedule(_:)`` runs the action inline when called
///   on the main actor *and nothing of this instance is queued or running*; otherwise it queues it, so
///   order is kept. The "queued" check is per instance, unlike RxSwift's process-wide
///   `MainScheduler.instance` counter (RxSwift #2704): create one instance per feature.
///
/// On Linux the main queue runs only while the process serves it: under `dispatchMain()` (async `main`,
/// Swift Testing) or a Foundation run loop. Note it is a "main actor" scheduler, not a "main thread"
/// one: on Linux the main queue may be served by a thread other than the process's first thread.
public final class MainActorScheduler: _EngineScheduler, RunnableJobSubmitting, Sendable {
  /// The shared, always-asynchronous main-actor scheduler.
  public static let shared = MainActorScheduler(name: "AsyncSchedulers.MainActorScheduler.shared")

  /// A name for debugging.
  public let name: String
  /// Whether ``schedule(_:)`` runs inline when on the main actor and idle.
  public let runsInlineWhenIdle: Bool
  /// The engine this scheduler runs on.
  public let _engine: _SchedulerEngine
  /// The engine's storage.
  var workQueue: WorkQueue { _engine.queue }

  /// Creates a main-actor scheduler; see the type's discussion for `runsInlineWhenIdle`.
  public init(name: String = "AsyncSchedulers.MainActorScheduler", runsInlineWhenIdle: Bool = false) {
    self.name = name
    self.runsInlineWhenIdle = runsInlineWhenIdle
    _ = MainActorScheduler.mainQueueMarker
    _engine = _SchedulerEngine(WorkQueue(name: name, queue: .main, width: 1, isolation: .mainActor, lowLatency: false))
    workQueue.attach(self, serialExecutor: nil)
  }

  /// The main actor's serial executor.
  public var unownedSerialExecutor: UnownedSerialExecutor { MainActor.sharedUnownedExecutor }

  // MARK: What differs from the engine's defaults (_EngineScheduler): the inline-when-idle path

  /// Schedules `action` on the main actor; inline when this instance runs inline when idle, the caller
  /// is on the main actor and nothing of this instance is queued or running.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction {
    if runsInlineWhenIdle && MainActorScheduler.isOnMainQueue && workQueue.runInlineIfIdle(action) {
      return .finished
    }
    return workQueue.schedule(action)
  }

  /// Runs `action` on the main actor with no handle; inline under the same conditions as
  /// ``schedule(_:)``.
  public func execute(_ action: @escaping @Sendable () -> Void) {
    if runsInlineWhenIdle && MainActorScheduler.isOnMainQueue && workQueue.runInlineIfIdle(action) { return }
    workQueue.submit(.closure(action))
  }

  /// Queues `job`, or runs it inline under the same conditions as ``schedule(_:)``.
  @usableFromInline package func submit(runnable job: consuming any RunnableJob) {
    let job = job
    if runsInlineWhenIdle && MainActorScheduler.isOnMainQueue && workQueue.runInlineIfIdle({ job.runJob() }) {
      return
    }
    workQueue.submit(.runnable(job))
  }

  // MARK: Main-queue detection

  private static let mainQueueKey = DispatchSpecificKey<Bool>()
  private static let mainQueueMarker: Void = DispatchQueue.main.setSpecific(key: mainQueueKey, value: true)

  /// Whether the caller runs on the main queue (the main actor's executor). Never blocks.
  package static var isOnMainQueue: Bool {
    _ = mainQueueMarker
    return DispatchQueue.getSpecific(key: mainQueueKey) == true
  }
}
