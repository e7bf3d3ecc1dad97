/// A scheduler that runs work on the calling thread without nesting (Rx `CurrentThreadScheduler`).
///
/// The first ``schedule(_:)`` on a thread runs its action inline; anything scheduled on that thread
/// while it runs is queued and runs, in order, after the outer action returns and before the outer
/// `schedule` call returns. Recursion therefore becomes iteration: the stack does not grow however deep
/// it goes. Queued actions can be disposed before they start. It does not set
/// ``Schedulers/current``. Timed forms block the calling thread until the deadline, then trampoline (a
/// sleep ends at once when its task is cancelled; a deadline at ``SchedulerInstant/distantFuture`` never
/// blocks).
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
  public static var isTrampolineActive: Bool { TrampolineQueue.slot.raw != nil }

  /// Whether the trampoline running on this thread has nothing queued behind the running action: an
  /// action that would schedule its own continuation may then run it in place, since it would run next
  /// anyway (a recursion that loops instead of queueing an item per step). `false` outside a trampoline.
  @usableFromInline package static var isQueueEmptyBehindRunningAction: Bool {
    TrampolineQueue.current?.fifo.isEmpty ?? false
  }

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
  ///
  /// A deadline at ``SchedulerInstant/distantFuture`` (where huge delays saturate) never comes: the call
  /// returns at once, without blocking, and `action` never runs (it is released when the returned handle
  /// is disposed or dropped).
  @discardableResult
  public func schedule(
    at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    guard deadline < .distantFuture else { return ScheduledAction(action) }
    blockUntil(deadline)
    return schedule(action)
  }

  /// Suspends the current task until `deadline`, holding the calling thread meanwhile (like
  /// ``schedule(at:leeway:_:)``); cancelling the task ends the sleep at once with `CancellationError`. A
  /// sleep until ``SchedulerInstant/distantFuture`` holds no thread: it lasts until the task is
  /// cancelled.
  public func sleep(until deadline: SchedulerInstant, tolerance: Duration? = nil) async throws {
    try await blockingSleep(until: deadline)
  }

  /// Not supported: stops the program with a message; a repeating timer could never return.
  @discardableResult
  public func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration = .zero,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    argumentFailure("TrampolineScheduler.scheduleRepeating: cannot run repeating work, the call would never return")
  }

  /// Trampolines the job on the enqueuing thread.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedTaskExecutor()
    if let queue = TrampolineQueue.current {
      // The queue is per thread and shared by every instance; its runner runs task jobs on `.shared`'s
      // executor, so another instance's job carries its own executor (else each of the job's awaits
      // would see a foreign executor and hop back through this instance).
      if self === Self.shared {
        queue.fifo.append(.taskJob(job))
      } else {
        queue.fifo.append(.closure { job.runSynchronously(on: executor) })
      }
    } else {
      TrampolineQueue.run { job.runSynchronously(on: executor) }
    }
  }
}

/// The per-thread queue of a running trampoline. Touched only by its own thread.
final class TrampolineQueue {
  var fifo = WorkFIFO()

  /// The trampoline running on this thread.
  static let slot = ThreadSlot()

  static var current: TrampolineQueue? {
    guard let raw = slot.raw else { return nil }
    return Unmanaged<TrampolineQueue>.fromOpaque(raw).takeUnretainedValue()
  }

  /// Runs `first`, then everything queued on this thread meanwhile, in order.
  static func run(_ first: () -> Void) {
    let queue = TrampolineQueue()
    let previous = slot.enter(queue)
    defer { slot.restore(previous) }
    withExtendedLifetime(queue) {
      first()
      let runner = WorkRunner(serial: nil, taskExecutor: TrampolineScheduler.shared.asUnownedTaskExecutor())
      while let work = queue.fifo.popFirst() { runner.run(work) }
    }
  }
}
