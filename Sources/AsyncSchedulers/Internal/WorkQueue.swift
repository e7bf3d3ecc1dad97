import Dispatch
import Synchronization

/// The engine behind the Dispatch-driven schedulers (``SerialScheduler``, ``MainActorScheduler``,
/// ``ConcurrentScheduler``): the storage of a ``WorkQueueStateMachine``. It takes each event's action
/// under its lock and performs it (submits workers, arms the alarm, releases references) after
/// releasing it; it never runs user code under the lock.
///
/// There is no thread and no Dispatch queue per scheduler: workers are blocks submitted to a target
/// queue only when the scheduler goes from idle to busy, and a busy worker drains everything queued
/// meanwhile without another submission. Timers live in the machine's one heap; the scheduler
/// registers a single alarm with the process-wide ``AlarmClock``.
///
/// The public scheduler that owns this engine (its *host*) is the task executor and the identity
/// ``Schedulers/current`` reports. The engine refers to it `unowned` (checked: a use after the host
/// is gone traps with the runtime's message instead of reading freed memory), and retains it while it
/// has something to run: each worker block holds it, and so does the engine while timers are pending
/// (as pending blocks keep a `DispatchQueue` alive). Not `weak`: a weak reference gives the host a
/// side table, which sends every retain and release of it down the runtime's slow path (measured:
/// the RAC bridge's `schedule` went from 0.9× to 1.9× the core's).
@usableFromInline
final class WorkQueue: TimerOwner, Sendable {
  /// How jobs run by this engine are isolated.
  enum Isolation {
    /// Serial: jobs run isolated to the host's own serial executor.
    case own
    /// Jobs run isolated to the main actor (the worker runs on the main queue).
    case mainActor
    /// Concurrent: no serial isolation.
    case none
  }

  struct State {
    var machine: WorkQueueStateMachine
    /// The scheduler that owns this engine; set once by ``attach(_:serialExecutor:)``.
    unowned var host: (any Scheduler)?
    /// The host's serial executor (``Isolation/own``), set with the host.
    var serial: UnownedSerialExecutor?
    /// This engine's registration with the process-wide ``AlarmClock``, created on first use.
    var alarm: AlarmRegistration?
    /// How many armings this engine has decided (each is performed after the lock, in any order: the
    /// alarm clock keeps the latest).
    var alarmGeneration: UInt64 = 0
    /// The host while timers are pending, so that fire-and-forget timers (which have no handle) keep
    /// it alive.
    var keepAlive: (any Scheduler)?

    /// The context for workers claimed by `action` (none when it claims none).
    func context(for action: WorkQueueStateMachine.WorkerAction) -> WorkerContext? {
      action.start > 0 ? WorkerContext(host: host, serial: serial) : nil
    }

    /// Sets or clears `keepAlive` after the timers changed; returns the reference to release once
    /// the lock is released (never release the host under this lock).
    mutating func retainWhileTimersPending() -> (any Scheduler)? {
      if machine.timerCount > 0 {
        if keepAlive == nil { keepAlive = host }
        return nil
      }
      defer { keepAlive = nil }
      return keepAlive
    }
  }

  /// The host's name, for messages.
  let name: String
  let queue: DispatchQueue
  let isolation: Isolation
  /// Whether workers may spin (the opt-in low-latency mode, on Dispatch's global queues only).
  let lowLatency: Bool
  let state: Mutex<State>
  /// Bumped when work or an earlier timer arrives while workers wait; they watch it without the lock.
  let waitSignal = Atomic<UInt32>(0)
  /// The host's object identity (0 until attached), for isolation checks that must not take the lock.
  private let hostIdentity = Atomic<UInt>(0)

  /// Whether workers take the ready work in batches (a serial engine) or one item at a time.
  let takesBatches: Bool
  /// Whether the alarm clock's thread may run this engine's due work itself (see ``AlarmClock``): set
  /// for serial, efficient engines on the default-priority global queue only, where a worker would run
  /// on an anonymous thread at the same priority anyway; never for a target queue of the user's choosing.
  let alarmMayRunWork: Bool

  /// What a worker needs from the host, read under the lock when the worker is claimed: the host
  /// itself (retained by the worker block) and its serial executor.
  struct WorkerContext {
    var host: (any Scheduler)?
    var serial: UnownedSerialExecutor?
  }

  /// How many items a worker runs before giving its target queue back to other work.
  static let budget = 4096
  /// How long a low-latency worker that drained the queue watches for more before returning.
  static let lingerTime = Duration.microseconds(20)

  init(
    name: String, queue: DispatchQueue, width: Int, isolation: Isolation, lowLatency: Bool,
    alarmMayRunWork: Bool = false
  ) {
    self.alarmMayRunWork = alarmMayRunWork && width == 1 && isolation == .own && !lowLatency
    self.name = name
    self.queue = queue
    self.isolation = isolation
    self.lowLatency = lowLatency
    self.takesBatches = width == 1
    self.state = Mutex(
      State(
        machine: WorkQueueStateMachine(width: width),
        serial: isolation == .mainActor ? MainActor.sharedUnownedExecutor : nil))
  }

  /// Binds the engine to the scheduler that owns it; called once, at the end of the host's
  /// initializer, before the host is reachable from anywhere else.
  func attach(_ host: any Scheduler, serialExecutor: UnownedSerialExecutor?) {
    hostIdentity.store(UInt(bitPattern: ObjectIdentifier(host)), ordering: .releasing)
    state.withCriticalRegion { state in
      state.host = host
      if isolation == .own { state.serial = serialExecutor }
    }
  }

  deinit {
    if let alarm = state.withCriticalRegion({ $0.alarm }) { AlarmClock.shared.cancel(alarm) }
  }

  /// Whether the calling code runs in one of this engine's jobs. Never blocks.
  var isCurrent: Bool {
    UInt(bitPattern: CurrentSchedulerSlot.raw) == hostIdentity.load(ordering: .relaxed)
  }

  /// How workers may wait right now: never, unless low-latency (then the window follows the
  /// measured hand-off latency).
  @inline(__always)
  var punctuality: WorkQueueStateMachine.Punctuality {
    lowLatency ? .lowLatency(timerWindow: HandOffLatency.window, linger: Self.lingerTime) : .efficient
  }

  /// The number of pending timers.
  @usableFromInline var pendingTimerCount: Int { state.withCriticalRegion { $0.machine.timerCount } }

  // MARK: Ready work

  /// Queues `work` after the work already queued.
  @inline(__always)
  func submit(_ work: Work) {
    let (action, context) = state.withCriticalRegion { state in
      let action = state.machine.enqueue(work)
      return (action, state.context(for: action))
    }
    perform(action, context)
  }

  /// Runs `body` inline as a job of this engine when the engine is idle (the inline-when-idle main
  /// scheduler), or returns `false` without running it.
  func runInlineIfIdle(_ body: () -> Void) -> Bool {
    let (claimed, host) = state.withCriticalRegion { state in
      (state.machine.isIdle && state.machine.claimWorker(), state.host)
    }
    guard claimed else { return false }
    Schedulers.withCurrent(host ?? self) { body() }
    let now = SchedulerInstant.uptimeNow
    let punctuality = self.punctuality
    let (context, arming) = state.withCriticalRegion { state in
      let action = state.machine.finishInlineRun(now: now, punctuality: punctuality)
      return (state.context(for: action.worker), alarmArming(for: action.timer, in: &state))
    }
    if let arming { AlarmClock.shared.arm(arming) }
    if let context { startWorker(context) }
    return true
  }

  /// Queues `action` behind a new handle (the schedulers' `schedule(_:)`).
  @usableFromInline
  func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction {
    let scheduled = ScheduledAction(action)
    submit(.action(scheduled))
    return scheduled
  }

  /// Queues `action` with no handle (the schedulers' `execute(_:)`).
  @usableFromInline
  func execute(_ action: @escaping @Sendable () -> Void) { submit(.closure(action)) }

  /// Queues a job of a task preferring the host (the schedulers' `enqueue(_:)`).
  @usableFromInline
  func enqueue(taskJob job: UnownedJob) { submit(.taskJob(job)) }

  /// Queues a bridged job object (the schedulers' `submit(runnable:)`).
  @usableFromInline
  func submit(runnable job: consuming any RunnableJob) { submit(.runnable(job)) }

  // MARK: Timers

  /// A one-shot timer with a handle (the schedulers' `schedule(at:leeway:_:)`).
  @usableFromInline
  func schedule(
    at deadline: SchedulerInstant, leeway: Duration, _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    let timer = ScheduledTimer(owner: self, action)
    addTimer(.timer(timer), at: deadline, leeway: leeway)
    return timer
  }

  /// A repeating timer on the grid `start + interval × k` (the schedulers' `scheduleRepeating`).
  @usableFromInline
  func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    preconditionValidRepeating(interval: interval, leeway: leeway)
    let timer = RepeatingTimer(owner: self, start: start, interval: interval, action)
    addTimer(.timer(timer), at: start, leeway: leeway)
    return timer
  }

  /// A timer with no handle (the schedulers' `execute(at:leeway:_:)`).
  @usableFromInline
  func execute(at deadline: SchedulerInstant, leeway: Duration, _ action: @escaping @Sendable () -> Void) {
    addTimer(.closure(action), at: deadline, leeway: leeway)
  }

  /// Adds a timer (a handle, or a closure with none) due at `deadline`, at most `leeway` late.
  func addTimer(_ payload: TimerHeap.Payload, at deadline: SchedulerInstant, leeway: Duration) {
    let now = SchedulerInstant.uptimeNow
    let punctuality = self.punctuality
    let maySpin = lowLatency && SpinBudget.isAvailable
    let (action, context, arming) = state.withCriticalRegion { state in
      let action = state.machine.addTimer(
        payload, at: deadline, leeway: leeway, now: now, punctuality: punctuality, maySpin: maySpin)
      _ = state.retainWhileTimersPending()
      return (action.worker, state.context(for: action.worker), alarmArming(for: action.timer, in: &state))
    }
    if let arming { AlarmClock.shared.arm(arming) }
    perform(action, context)
  }

  /// Removes a disposed timer from the heap at once (the alarm stays armed; an early alarm finds
  /// nothing due and re-arms for the next deadline).
  func cancelTimer(_ timer: ScheduledTimer) {
    let released = state.withCriticalRegion { state in
      state.machine.removeTimer(timer)
      return state.retainWhileTimersPending()
    }
    withExtendedLifetime(released) {}
  }

  /// The arming `action` asks for, numbered in the order decided (under this engine's lock), to perform
  /// with `AlarmClock.shared.arm(_:)` after releasing the lock; the clock ignores an arming older than
  /// one it already performed, so arming outside the lock keeps the latest decision.
  func alarmArming(for action: WorkQueueStateMachine.TimerAction, in state: inout State) -> AlarmArming? {
    guard case .arm(let earliest, let latest) = action else { return nil }
    let alarm: AlarmRegistration
    if let existing = state.alarm {
      alarm = existing
    } else {
      alarm = AlarmRegistration(mayRunInline: alarmMayRunWork) { [weak self] inline in self?.alarmFired(inline: inline)
      }
      state.alarm = alarm
    }
    state.alarmGeneration &+= 1
    return AlarmArming(registration: alarm, earliest: earliest, latest: latest, generation: state.alarmGeneration)
  }

  /// Called on the alarm thread: moves due timers to the ready queue, and starts (or wakes) a worker
  /// for them, or re-arms. When the clock offers its thread (`inline`) and a worker is needed, the
  /// worker runs right here instead of being submitted: one thread wake-up per tick instead of two.
  private func alarmFired(inline: Bool) {
    let now = SchedulerInstant.uptimeNow
    let punctuality = self.punctuality
    let maySpin = lowLatency && SpinBudget.isAvailable
    let (action, context, released, arming) = state.withCriticalRegion { state in
      let action = state.machine.alarmFired(now: now, punctuality: punctuality, maySpin: maySpin)
      return (
        action.worker, state.context(for: action.worker), state.retainWhileTimersPending(),
        alarmArming(for: action.timer, in: &state)
      )
    }
    if let arming { AlarmClock.shared.arm(arming) }
    withExtendedLifetime(released) {}
    if inline, action == .startWorker, let context {
      runWorker(context)
      return
    }
    perform(action, context)
  }

  // MARK: Workers

  /// Performs a worker action: signals waiting workers, and submits the workers claimed for it.
  @inline(__always)
  func perform(_ action: WorkQueueStateMachine.WorkerAction, _ context: WorkerContext?) {
    if action.wake { waitSignal.wrappingAdd(1, ordering: .relaxed) }
    guard let context else { return }
    for _ in 0..<action.start { startWorker(context) }
  }
}
