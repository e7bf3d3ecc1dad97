import Dispatch

/// A serial scheduler: one job at a time, first in first out, even when jobs arrive from many threads
/// (RAC `+scheduler` / `+schedulerWithPriority:name:` / `RACTargetQueueScheduler`, Rx
/// `SerialDispatchQueueScheduler`).
///
/// It is three things at once:
/// - a callback scheduler (``schedule(_:)`` and the timed forms);
/// - a task executor: `Task(executorPreference: scheduler)`, `withTaskExecutorPreference(scheduler)`, and
///   their `async let` and task-group children run here;
/// - the executor of actors: `nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.unownedSerialExecutor }`.
///
/// Actor jobs, task jobs and callbacks share one FIFO, so they never run at the same time. Creating one
/// is cheap (no thread, no Dispatch queue of its own): its workers run on a shared global queue of its
/// priority, or on the target queue you give it. Timers live in its own heap; only its earliest deadline
/// is registered with the one timer thread the whole process shares.
///
/// On a global queue (the `priority` initializer), a worker that runs out of work keeps its thread for
/// 20 µs in case more arrives, and a timer about to fall due (within twice the measured thread
/// hand-off latency, 50–500 µs) is handed to a worker that spins to its deadline, so it runs
/// microseconds late rather than a thread wake-up late. At most half the processors spin at once,
/// process-wide. A scheduler on your own `targetQueue` never spins.
///
/// ```swift
/// let scheduler = SerialScheduler(name: "db", priority: .high)
/// actor Database {
///   let scheduler: SerialScheduler
///   nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.unownedSerialExecutor }
///   init(scheduler: SerialScheduler) { self.scheduler = scheduler }
/// }
/// ```
public final class SerialScheduler: WorkQueueScheduler, @unchecked Sendable {
  // Why @unchecked Sendable: inherits WorkQueueScheduler's invariant (only `let`s and a Mutex).

  /// The scheduler's priority (`.default` when it targets a queue of your choosing).
  public let priority: SchedulerPriority

  /// Creates a serial scheduler whose work runs at `priority`.
  public init(name: String = "AsyncSchedulers.SerialScheduler", priority: SchedulerPriority = .default) {
    self.priority = priority
    super.init(name: name, queue: .global(qos: priority.qos), width: 1, isolation: .own, spins: true)
  }

  /// Creates a serial scheduler whose work runs on `targetQueue` (RAC `RACTargetQueueScheduler`).
  ///
  /// The scheduler stays serial even when `targetQueue` is concurrent. Blocks submitted directly to
  /// `targetQueue` are not ordered with this scheduler's jobs. Its workers never spin on `targetQueue`
  /// (no lingering, no waiting for an imminent timer): they give the queue back as soon as they are
  /// out of work.
  public init(name: String = "AsyncSchedulers.SerialScheduler", targetQueue: DispatchQueue) {
    self.priority = .default
    super.init(name: name, queue: targetQueue, width: 1, isolation: .own, spins: false)
  }

  /// The serial executor for actors bound to this scheduler.
  ///
  /// The actor must keep the scheduler alive (store it), as with every custom executor.
  public var unownedSerialExecutor: UnownedSerialExecutor { serialExecutor!.asUnownedSerialExecutor() }

  /// Whether the calling code is running on this scheduler (in one of its jobs, actor methods or
  /// preferring tasks). Never blocks.
  public var isCurrent: Bool { CurrentSchedulerSlot.isCurrent(self) }

  /// Stops the program with `message` unless the calling code is running on this scheduler.
  public func preconditionIsCurrent(
    _ message: @autoclosure () -> String = "", file: StaticString = #fileID, line: UInt = #line
  ) {
    precondition(isCurrent, "Expected to run on scheduler '\(name)'. \(message())", file: file, line: line)
  }
}
