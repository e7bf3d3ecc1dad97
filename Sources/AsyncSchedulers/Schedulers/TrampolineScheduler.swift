#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A scheduler that runs work on the calling thread without nesting (Rx `CurrentThreadScheduler`).
///
/// The first ``schedule(_:)`` on a thread runs its action inline; anything scheduled on that thread
/// while it runs is queued and runs, in order, after the outer action returns and before the outer
/// `schedule` call returns. Recursion therefore becomes iteration: the stack does not grow however deep
/// it goes. Queued actions can be disposed before they start. It does not set
/// ``Schedulers/current``. Timed forms block the calling thread until the deadline, then trampoline.
/// As a task executor, jobs are trampolined on the enqueuing thread. It is not a serial executor.
public final class TrampolineScheduler: Scheduler {
  /// The shared trampoline scheduler (all instances share the per-thread queue).
  public static let shared = TrampolineScheduler()

  /// A name for debugging.
  public let name: String

  /// Creates a trampoline scheduler.
  public init(name: String = "AsyncSchedulers.TrampolineScheduler") { self.name = name }

  /// The current instant on the real-time (monotonic uptime) timeline.
  public var now: SchedulerInstant { .uptimeNow }

  /// Whether a trampoline is running on this thread, so a schedule would be queued instead of run
  /// inline (Rx `CurrentThreadScheduler.isScheduleRequired`, inverted).
  public static var isTrampolineActive: Bool { pthread_getspecific(TrampolineQueue.key) != nil }

  /// Runs `action` inline if no trampoline runs on this thread (then drains what it queues), or queues
  /// it behind the running one.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction {
    if let queue = TrampolineQueue.current {
      let scheduled = ScheduledAction(action)
      queue.fifo.append(.action(scheduled))
      return scheduled
    }
    TrampolineQueue.run { action() }
    return .finished
  }

  /// Blocks the calling thread until `deadline`, then trampolines `action`.
  @discardableResult
  public func schedule(
    at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    blockUntil(deadline)
    return schedule(action)
  }

  /// Not supported: stops the program with a message; a repeating timer could never return.
  @discardableResult
  public func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration = .zero,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    preconditionFailure("TrampolineScheduler cannot run repeating work: the call would never return")
  }

  /// Trampolines the job on the enqueuing thread.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    if let queue = TrampolineQueue.current {
      queue.fifo.append(.taskJob(job))
    } else {
      TrampolineQueue.run { job.runSynchronously(on: executor) }
    }
  }
}

/// The per-thread queue of a running trampoline. Touched only by its own thread.
final class TrampolineQueue {
  var fifo = WorkFIFO()

  static let key: pthread_key_t = {
    var key = pthread_key_t()
    let result = pthread_key_create(&key, nil)
    precondition(result == 0, "pthread_key_create failed (\(result))")
    return key
  }()

  static var current: TrampolineQueue? {
    guard let raw = pthread_getspecific(key) else { return nil }
    return Unmanaged<TrampolineQueue>.fromOpaque(raw).takeUnretainedValue()
  }

  /// Runs `first`, then everything queued on this thread meanwhile, in order.
  static func run(_ first: () -> Void) {
    let queue = TrampolineQueue()
    pthread_setspecific(key, Unmanaged.passUnretained(queue).toOpaque())
    defer { pthread_setspecific(key, nil) }
    withExtendedLifetime(queue) {
      first()
      let runner = WorkRunner(serial: nil, taskExecutor: TrampolineScheduler.shared.asUnownedTaskExecutor())
      while let work = queue.fifo.popFirst() { runner.run(work) }
    }
  }
}
