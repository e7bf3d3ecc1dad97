import Dispatch
import Synchronization

/// The engine shared by the Dispatch-driven schedulers (``SerialScheduler``, ``MainActorScheduler``,
/// ``ConcurrentScheduler``): a lock-guarded FIFO of ready work drained in batches by at most `width`
/// workers, and a timer heap whose earliest deadline is registered with the process-wide alarm thread.
///
/// There is no thread and no Dispatch queue per scheduler: workers are blocks submitted to a shared
/// target queue only when the scheduler goes from idle to busy, and a busy worker drains everything
/// queued meanwhile without another submission. You do not create this class directly; use one of its
/// subclasses.
public class WorkQueueScheduler: Scheduler, RunnableJobSubmitting, TimerOwner, @unchecked Sendable {
  // Why @unchecked Sendable: the class is non-final only so that the public scheduler types can share
  // this engine; every stored property is a `let`, and all mutable state lives in `state` (a Mutex).

  /// How jobs run by this scheduler are isolated.
  enum Isolation {
    /// Serial: jobs run isolated to this scheduler's own serial executor.
    case own
    /// Jobs run isolated to the main actor (the worker runs on the main queue).
    case mainActor
    /// Concurrent: no serial isolation.
    case none
  }

  struct State {
    var machine: WorkQueueStateMachine
    /// This scheduler's registration with the process-wide ``AlarmClock``, created on first use.
    var alarm: ScheduledTimer?
  }

  /// A name for debugging.
  public let name: String
  let queue: DispatchQueue
  let width: Int
  let isolation: Isolation
  let serialExecutor: SerialSchedulerExecutor?
  let state: Mutex<State>
  /// How many items a worker runs before giving its target queue back to other work.
  private static var budget: Int { 4096 }

  init(name: String, queue: DispatchQueue, width: Int, isolation: Isolation) {
    precondition(width >= 1, "a scheduler needs a width of at least 1 (got \(width))")
    self.name = name
    self.queue = queue
    self.width = width
    self.isolation = isolation
    self.serialExecutor = isolation == .own ? SerialSchedulerExecutor() : nil
    self.state = Mutex(State(machine: WorkQueueStateMachine(width: width), alarm: nil))
    serialExecutor?.scheduler = self
  }

  deinit {
    state.withCriticalRegion { $0.alarm }?.dispose()
  }

  // MARK: Clock

  /// The current instant on the real-time (monotonic uptime) timeline. Never blocks.
  public var now: SchedulerInstant { .uptimeNow }

  // MARK: Callback API

  /// Schedules `action` after the work already queued; see ``Scheduler/schedule(_:)``.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction {
    let scheduled = ScheduledAction(action)
    submit(.action(scheduled))
    return scheduled
  }

  /// Runs `action` after the work already queued, with no handle and no allocation of its own; see
  /// ``Scheduler/execute(_:)``.
  public func execute(_ action: @escaping @Sendable () -> Void) {
    submit(.closure(action))
  }

  /// Queues `job` after the work already queued (the bridge's path).
  package func submit(runnable job: any RunnableJob) {
    submit(.runnable(job))
  }

  /// Schedules `action` at `deadline`; see ``Scheduler/schedule(at:leeway:_:)``.
  @discardableResult
  public func schedule(
    at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    let scheduled = ScheduledTimer(owner: self, action)
    addTimer(scheduled, at: deadline)
    return scheduled
  }

  /// Schedules a repeating `action`; see ``Scheduler/scheduleRepeating(startingAt:every:leeway:_:)``.
  @discardableResult
  public func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration = .zero,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    preconditionValidRepeating(interval: interval, leeway: leeway)
    let scheduled = ScheduledTimer(owner: self, repeating: RepeatGrid(start: start, interval: interval), action)
    addTimer(scheduled, at: start)
    return scheduled
  }

  // MARK: Executors

  /// Runs a job of a task that prefers this scheduler (`Task(executorPreference:)`,
  /// `withTaskExecutorPreference`, and their `async let` and task-group children).
  public func enqueue(_ job: consuming ExecutorJob) {
    submit(.taskJob(UnownedJob(job)))
  }

  // MARK: Engine

  @inline(__always)
  final func submit(_ work: Work) {
    if state.withCriticalRegion({ $0.machine.enqueue(work) }) { startWorker() }
  }

  final func startWorker() {
    queue.async { self.runWorker() }
  }

  private func addTimer(_ timer: ScheduledTimer, at deadline: SchedulerInstant) {
    state.withCriticalRegion { state in
      // Arming the alarm under the lock keeps concurrent arms in deadline order; it runs no user code
      // and does not block.
      arm(state.machine.addTimer(timer, at: deadline), in: &state)
    }
  }

  /// Removes a disposed timer from the heap at once (the alarm stays armed; an early alarm finds
  /// nothing due and re-arms for the next deadline).
  package func cancelTimer(_ action: ScheduledTimer) {
    state.withCriticalRegion { $0.machine.removeTimer(action) }
  }

  private func arm(_ action: WorkQueueStateMachine.TimerAction, in state: inout State) {
    guard case .arm(let deadline) = action else { return }
    let alarm: ScheduledTimer
    if let existing = state.alarm {
      alarm = existing
    } else {
      alarm = ScheduledTimer(owner: AlarmClock.shared, reusable: true) { [weak self] in self?.fireTimers() }
      state.alarm = alarm
    }
    // Lock order: this scheduler's lock, then the alarm clock's (which never takes a scheduler's).
    AlarmClock.shared.arm(alarm, at: deadline)
  }

  /// Called on the alarm thread: moves due timers to the ready queue and starts a worker for them.
  private func fireTimers() {
    let now = self.now
    let startWorker = state.withCriticalRegion { state in
      let (startWorker, timer) = state.machine.fireDueTimers(now: now)
      arm(timer, in: &state)
      return startWorker
    }
    if startWorker { self.startWorker() }
  }

  /// Runs ready work until there is none, or until the budget is spent (then re-dispatches itself,
  /// keeping its slot, so other work on the target queue gets a turn).
  final func runWorker() {
    let previous = CurrentSchedulerSlot.enter(self)
    defer { CurrentSchedulerSlot.restore(previous) }
    let serial = serialIsolation
    let taskExecutor = asUnownedTaskExecutor()
    var processed = 0
    if width == 1 {
      var batch = WorkFIFO()
      while state.withCriticalRegion({ $0.machine.takeBatch(into: &batch) }) {
        for work in batch.pending { run(work, serial: serial, taskExecutor: taskExecutor) }
        processed += batch.count
        batch.removeAll()
        if processed >= Self.budget {
          startWorker()
          return
        }
      }
    } else {
      while let work = state.withCriticalRegion({ $0.machine.takeOne() }) {
        run(work, serial: serial, taskExecutor: taskExecutor)
        processed += 1
        if processed >= Self.budget {
          startWorker()
          return
        }
      }
    }
  }

  private var serialIsolation: UnownedSerialExecutor? {
    switch isolation {
    case .own: serialExecutor!.asUnownedSerialExecutor()
    case .mainActor: MainActor.sharedUnownedExecutor
    case .none: nil
    }
  }

  @inline(__always)
  private func run(_ work: Work, serial: UnownedSerialExecutor?, taskExecutor: UnownedTaskExecutor) {
    switch work {
    case .action(let action):
      action.run()
    case .closure(let action):
      action()
    case .runnable(let job):
      job.runJob()
    case .job(let job):
      job.runSynchronously(on: serial!)
    case .taskJob(let job):
      if let serial {
        job.runSynchronously(isolatedTo: serial, taskExecutor: taskExecutor)
      } else {
        job.runSynchronously(on: taskExecutor)
      }
    }
  }

  /// The number of timers pending in this scheduler's timer heap (for diagnostics and tests).
  public var pendingTimerCount: Int { state.withCriticalRegion { $0.machine.timerCount } }
}

/// The serial executor of a serial scheduler: what actors bound to it return from `unownedExecutor`.
///
/// It is a separate object from the scheduler (which is the *task* executor) so that actor jobs run
/// `on:` it and task jobs run `isolatedTo:` it, and the runtime never sees a task-executor mismatch on
/// an actor call (one object in both roles costs an extra enqueue per call).
final class SerialSchedulerExecutor: SerialExecutor, @unchecked Sendable {
  // Why @unchecked Sendable: `scheduler` is assigned exactly once, in the scheduler's initializer,
  // before this object is reachable from anywhere else, and never changes afterwards. It is unowned
  // because the scheduler owns this object; an actor must keep its scheduler alive, as Swift requires
  // of every custom executor.
  unowned(unsafe) var scheduler: WorkQueueScheduler?

  func enqueue(_ job: consuming ExecutorJob) {
    scheduler!.submit(.job(UnownedJob(job)))
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

  func isIsolatingCurrentContext() -> Bool? { CurrentSchedulerSlot.isCurrent(scheduler!) }

  func checkIsolated() {
    precondition(
      CurrentSchedulerSlot.isCurrent(scheduler!),
      "Incorrect isolation: expected to be running on scheduler '\(scheduler!.name)'")
  }
}
