import Dispatch
import Synchronization

/// The engine shared by the Dispatch-driven schedulers (``SerialScheduler``, ``MainActorScheduler``,
/// ``ConcurrentScheduler``): a lock-guarded FIFO of ready work drained in batches by at most `width`
/// workers, and a timer heap whose earliest deadline is registered with the process-wide alarm thread.
///
/// There is no thread and no Dispatch queue per scheduler: workers are blocks submitted to a shared
/// target queue only when the scheduler goes from idle to busy, and a busy worker drains everything
/// queued meanwhile without another submission. On global queues, a worker out of work lingers for
/// 20 µs before giving its thread back, and the alarm goes off early (by the measured hand-off
/// latency, 50–500 µs) so that a worker is already there, spinning, when the timer falls due (see
/// `WorkQueueStateMachine`; spinning is capped process-wide by `SpinBudget`). You do not create this
/// class directly; use one of its subclasses.
public class WorkQueueScheduler: Scheduler, RunnableJobSubmitting, TimerOwner, @unchecked Sendable {
  // Why @unchecked Sendable: the class is non-final only so that the public scheduler types can share
  // this engine; every stored property is a `let`, and all mutable state lives in `state` (a Mutex) or
  // `waitSignal` (an Atomic that only carries wake-ups; the state it announces is read under `state`).

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
    /// The scheduler itself while timers are pending, so that pending timers keep it alive as pending
    /// blocks keep a `DispatchQueue` alive (fire-and-forget timers have no handle to do it).
    var keepAlive: WorkQueueScheduler?

    /// Sets or clears `keepAlive` after the timers changed; returns the reference to release once
    /// the lock is released (never release the scheduler under its own lock).
    mutating func retainWhileTimersPending(_ scheduler: WorkQueueScheduler) -> WorkQueueScheduler? {
      if machine.timerCount > 0 {
        if keepAlive == nil { keepAlive = scheduler }
        return nil
      }
      defer { keepAlive = nil }
      return keepAlive
    }
  }

  /// A name for debugging.
  public let name: String
  let queue: DispatchQueue
  let width: Int
  let isolation: Isolation
  let serialExecutor: SerialSchedulerExecutor?
  let state: Mutex<State>
  /// Whether workers linger and wait for imminent timers (Dispatch's global queues only). How early a
  /// timer is handed from the alarm thread to a worker, which spins to its deadline, follows the
  /// measured hand-off latency (``HandOffLatency``): thread wake-ups take tens to hundreds of
  /// microseconds, and are paid inside that window instead of after the deadline.
  let spins: Bool
  /// Bumped when work or an earlier timer arrives while workers wait; they watch it without the lock.
  let waitSignal = Atomic<UInt32>(0)
  /// How many items a worker runs before giving its target queue back to other work.
  private static var budget: Int { 4096 }

  /// `spins` lets workers linger and wait for imminent timers on `queue` (only for Dispatch's global
  /// queues: a caller's own target queue, or the main queue, is never held by a spinning worker).
  init(name: String, queue: DispatchQueue, width: Int, isolation: Isolation, spins: Bool) {
    self.spins = spins
    precondition(width >= 1, "a scheduler needs a width of at least 1 (got \(width))")
    self.name = name
    self.queue = queue
    self.width = Int(Int32(clamping: width))
    self.isolation = isolation
    self.serialExecutor = isolation == .own ? SerialSchedulerExecutor() : nil
    self.state = Mutex(
      State(
        machine: WorkQueueStateMachine(
          width: width, timerWindow: .zero, lingerTime: spins ? Self.lingerTime : .zero),
        alarm: nil))
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
  @usableFromInline package func submit(runnable job: consuming any RunnableJob) {
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

  /// Runs `action` at `deadline` with no handle: the closure is kept in the timer heap's entry, and
  /// nothing else is allocated; see ``Scheduler/execute(at:leeway:_:)``.
  public func execute(at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void) {
    let now = self.now
    let window = timerWindow
    let worker = state.withCriticalRegion { state in
      state.machine.timerWindow = window
      let (worker, timer) = state.machine.addTimer(at: deadline, now: now, maySpin: SpinBudget.isAvailable, action)
      arm(timer, in: &state)
      _ = state.retainWhileTimersPending(self)
      return worker
    }
    perform(worker)
  }

  /// Schedules a repeating `action`; see ``Scheduler/scheduleRepeating(startingAt:every:leeway:_:)``.
  @discardableResult
  public func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration = .zero,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    preconditionValidRepeating(interval: interval, leeway: leeway)
    let scheduled = RepeatingTimer(owner: self, grid: RepeatGrid(start: start, interval: interval), action)
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
    perform(state.withCriticalRegion { $0.machine.enqueue(work) })
  }

  @inline(__always)
  private func perform(_ action: WorkQueueStateMachine.WorkerAction) {
    if action.wake { waitSignal.wrappingAdd(1, ordering: .relaxed) }
    for _ in 0..<action.start { startWorker() }
  }

  final func startWorker() {
    guard spins else {
      queue.async { self.runWorker() }
      return
    }
    // Only schedulers that hand timers over measure how long a worker takes to start.
    let requested = HandOffLatency.now
    queue.async {
      HandOffLatency.recordWorkerStart(HandOffLatency.now - requested)
      self.runWorker()
    }
  }

  /// The timer window to use now: the measured hand-off latency, or zero when this scheduler never spins.
  @inline(__always)
  private var timerWindow: Duration { spins ? HandOffLatency.window : .zero }

  private func addTimer(_ timer: ScheduledTimer, at deadline: SchedulerInstant) {
    let now = self.now
    let window = timerWindow
    let worker = state.withCriticalRegion { state in
      state.machine.timerWindow = window
      let (worker, timer) = state.machine.addTimer(timer, at: deadline, now: now, maySpin: SpinBudget.isAvailable)
      // Arming the alarm under the lock keeps concurrent arms in deadline order; it runs no user code
      // and does not block.
      arm(timer, in: &state)
      _ = state.retainWhileTimersPending(self)
      return worker
    }
    perform(worker)
  }

  /// Removes a disposed timer from the heap at once (the alarm stays armed; an early alarm finds
  /// nothing due and re-arms for the next deadline).
  package func cancelTimer(_ action: ScheduledTimer) {
    let released = state.withCriticalRegion { state in
      state.machine.removeTimer(action)
      return state.retainWhileTimersPending(self)
    }
    withExtendedLifetime(released) {}
  }

  private func arm(_ action: WorkQueueStateMachine.TimerAction, in state: inout State) {
    guard case .arm(let deadline) = action else { return }
    let alarm: ScheduledTimer
    if let existing = state.alarm {
      alarm = existing
    } else {
      alarm = ScheduledTimer(owner: AlarmClock.shared, keepsBody: true) { [weak self] in self?.alarmFired() }
      state.alarm = alarm
    }
    // Lock order: this scheduler's lock, then the alarm clock's (which never takes a scheduler's).
    AlarmClock.shared.arm(alarm, at: deadline)
  }

  /// Called on the alarm thread: moves due timers to the ready queue, and starts (or wakes) a worker
  /// for them or for a timer about to fall due.
  private func alarmFired() {
    let now = self.now
    let window = timerWindow
    let (worker, released) = state.withCriticalRegion { state in
      state.machine.timerWindow = window
      let (worker, timer) = state.machine.alarmFired(now: now, maySpin: SpinBudget.isAvailable)
      arm(timer, in: &state)
      return (worker, state.retainWhileTimersPending(self))
    }
    perform(worker)
    withExtendedLifetime(released) {}
  }

  /// Gives back the slot claimed for an inline run (the main-actor scheduler's fast path).
  final func finishInlineRun() {
    let now = self.now
    let startWorker = state.withCriticalRegion { state in
      let (startWorker, timer) = state.machine.finishInlineRun(now: now)
      arm(timer, in: &state)
      return startWorker
    }
    if startWorker { self.startWorker() }
  }

  /// How long a worker that ran out of work keeps its slot, watching for more, before it returns its
  /// thread to Dispatch. Never on the main queue.
  static let lingerTime = Duration.microseconds(20)

  /// Runs ready work until there is none, or until the budget is spent (then re-dispatches itself,
  /// keeping its slot, so other work on the target queue gets a turn). When work runs out, the
  /// worker waits for a timer due within the window, or lingers briefly, before giving its slot back.
  final func runWorker() {
    let previous = CurrentSchedulerSlot.enter(self)
    defer { CurrentSchedulerSlot.restore(previous) }
    let serial = serialIsolation
    let taskExecutor = asUnownedTaskExecutor()
    var processed = 0
    // How this worker comes to ask for work (the machine counts it as starting or waiting until it
    // does), whether work ran since the last wait (a worker lingers at most once per drain), and
    // whether the spin budget refused the last wait (then the next step must not wait).
    var arrival = WorkQueueStateMachine.WorkerArrival.started
    var ranSinceWait = true
    var refused = false
    var batch = WorkFIFO()
    while true {
      let now = self.now
      let window = timerWindow
      let maySpin = !refused && SpinBudget.isAvailable
      let (step, work, workers, signal, released) = state.withCriticalRegion { state in
        var step: WorkQueueStateMachine.WorkerStep
        var work: Work? = nil
        var workers = WorkQueueStateMachine.WorkerAction.none
        state.machine.timerWindow = window
        if width == 1 {
          step = state.machine.takeBatch(
            into: &batch, now: now, mayLinger: ranSinceWait, maySpin: maySpin, from: arrival)
        } else {
          let timer: WorkQueueStateMachine.TimerAction
          (step, work, workers, timer) = state.machine.takeOne(
            now: now, mayLinger: ranSinceWait, maySpin: maySpin, from: arrival)
          arm(timer, in: &state)
        }
        if case .stop(let timer) = step { arm(timer, in: &state) }
        return (step, work, workers, waitSignal.load(ordering: .relaxed), state.retainWhileTimersPending(self))
      }
      // The worker's own reference keeps the scheduler alive past this release.
      withExtendedLifetime(released) {}
      perform(workers)
      switch step {
      case .stop:
        return
      case .wait(let until):
        arrival = .waited
        ranSinceWait = false
        refused = !SpinBudget.tryAcquire()
        if !refused {
          wait(until: until, seen: signal)
          SpinBudget.release()
        }
        continue
      case .run:
        arrival = .ran
        ranSinceWait = true
        refused = false
      }
      if let work {
        run(work, serial: serial, taskExecutor: taskExecutor)
        processed += 1
      } else {
        for work in batch.pending { run(work, serial: serial, taskExecutor: taskExecutor) }
        processed += batch.count
        batch.removeAll()
      }
      if processed >= Self.budget {
        state.withCriticalRegion { $0.machine.resubmitWorker() }
        startWorker()
        return
      }
    }
  }

  /// Spins until the wait signal moves past `seen` or `deadline` has come. Holds no lock.
  private func wait(until deadline: SchedulerInstant, seen: UInt32) {
    let end = deadline.offset.saturatingNanoseconds
    var iterations: UInt32 = 0
    while waitSignal.load(ordering: .relaxed) == seen {
      iterations &+= 1
      if iterations & 15 == 0 && DispatchTime.now().uptimeNanoseconds >= end { return }
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

  /// Whether it runs one job at a time (a serial or main-actor scheduler).
  package var isSerial: Bool { width == 1 }
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
