import Dispatch

/// A serial scheduler: one job at a time, first in first out, even when jobs arrive from many threads
/// (RAC `+scheduler` / `+schedulerWithPriority:name:` / `RACTargetQueueScheduler`, Rx
/// `SerialDispatchQueueScheduler`).
///
/// It is three things at once:
/// - a callback scheduler (``schedule(_:)`` and the timed forms);
/// - a task executor: `Task(executorPreference: scheduler)`, `withTaskExecutorPreference(scheduler)`, and
///   their `async let` and task-group children run here;
/// - the executor of actors:
///   `nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.unownedSerialExecutor }`.
///
/// Actor jobs, task jobs and callbacks share one FIFO, so they never run at the same time. Creating one
/// is cheap (no thread, no Dispatch queue of its own): its workers run on a shared global queue of its
/// priority, or on the target queue you give it, and only while it has work. Timers live in its own
/// heap; the one timer thread the whole process shares waits for them in the kernel, honouring their
/// leeway. At the default priority (and efficient), when its timer is the only one armed in the process,
/// that thread runs the due work itself instead of waking a worker (one wake-up per tick), having
/// handed its watch to a second thread for any other timer armed meanwhile. By default nothing spins
/// (see ``SchedulerLatencyMode``). Pending work and timers keep the scheduler alive, as pending blocks
/// keep a `DispatchQueue` alive.
///
/// ```swift
/// let scheduler = SerialScheduler(name: "db", priority: .high)
/// actor Database {
///   let scheduler: SerialScheduler
///   nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.unownedSerialExecutor }
///   init(scheduler: SerialScheduler) { self.scheduler = scheduler }
/// }
/// ```
public final class SerialScheduler: _EngineScheduler, RunnableJobSubmitting, Sendable {
  /// A name for debugging.
  public let name: String
  /// The scheduler's priority (`.default` when it targets a queue of your choosing).
  public let priority: SchedulerPriority
  /// Whether its workers may spin for punctuality (always ``SchedulerLatencyMode/efficient`` on a
  /// target queue of your choosing).
  public let latencyMode: SchedulerLatencyMode
  /// The engine this scheduler runs on.
  public let _engine: _SchedulerEngine
  /// The engine's storage.
  var workQueue: WorkQueue { _engine.queue }
  private let serialExecutor: SerialSchedulerExecutor

  /// Creates a serial scheduler whose work runs at `priority`, efficient (never spinning) unless you
  /// ask for ``SchedulerLatencyMode/lowLatency``.
  public init(
    name: String = "AsyncSchedulers.SerialScheduler", priority: SchedulerPriority = .default,
    latencyMode: SchedulerLatencyMode = .efficient
  ) {
    self.name = name
    self.priority = priority
    self.latencyMode = latencyMode
    _engine = _SchedulerEngine(
      WorkQueue(
        name: name, queue: .global(qos: priority.qos), width: 1, isolation: .own,
        lowLatency: latencyMode == .lowLatency, alarmMayRunWork: priority == .default))
    serialExecutor = SerialSchedulerExecutor(_engine.queue)
    workQueue.attach(self, serialExecutor: serialExecutor.asUnownedSerialExecutor())
  }

  /// Creates a serial scheduler whose work runs on `targetQueue` (RAC `RACTargetQueueScheduler`).
  ///
  /// The scheduler stays serial even when `targetQueue` is concurrent. Blocks submitted directly to
  /// `targetQueue` are not ordered with this scheduler's jobs. Its workers never spin on `targetQueue`:
  /// they give the queue back as soon as they are out of work.
  public init(name: String = "AsyncSchedulers.SerialScheduler", targetQueue: DispatchQueue) {
    self.name = name
    self.priority = .default
    self.latencyMode = .efficient
    _engine = _SchedulerEngine(WorkQueue(name: name, queue: targetQueue, width: 1, isolation: .own, lowLatency: false))
    serialExecutor = SerialSchedulerExecutor(_engine.queue)
    workQueue.attach(self, serialExecutor: serialExecutor.asUnownedSerialExecutor())
  }

  /// The serial executor for actors bound to this scheduler.
  ///
  /// The actor must keep the scheduler alive (store it), as with every custom executor.
  public var unownedSerialExecutor: UnownedSerialExecutor { serialExecutor.asUnownedSerialExecutor() }

  /// Whether the calling code is running on this scheduler (in one of its jobs, actor methods or
  /// preferring tasks). Never blocks.
  public var isCurrent: Bool { CurrentSchedulerSlot.isCurrent(self) }

  /// Stops the program with `message` unless the calling code is running on this scheduler.
  public func preconditionIsCurrent(
    _ message: @autoclosure () -> String = "", file: StaticString = #fileID, line: UInt = #line
  ) {
    checkArgument(isCurrent, "Expected to run on scheduler '\(name)'. \(message())", file: file, line: line)
  }

}
