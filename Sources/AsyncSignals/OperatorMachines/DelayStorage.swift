import AsyncSchedulers
import Synchronization

/// The events of one `delay` subscription waiting for their time; pure.
///
/// Deadlines arrive in order (the delay is constant), so one timer, for the earliest, is enough. What
/// falls due is posted to the outbox in deadline order; a failure skips the queue.
struct DelayStateMachine<Event: Sendable>: OutboxState {
  private var waiting = FIFOBuffer<(event: Event, deadline: SchedulerInstant)>()
  /// Whether a timer is armed for the earliest waiting event.
  private(set) var armed = false
  /// Whether a failure was posted: nothing more is taken.
  private(set) var failed = false
  var outbox = DrainQueue<Event>()

  init() {}

  /// How many events wait for their time.
  var waitingCount: Int { waiting.count }

  /// What to do after adding an event.
  enum AddAction: Equatable {
    /// Arm the timer for `deadline` (none was armed).
    case arm(SchedulerInstant)
    /// Nothing: a timer is armed for an earlier event, or the signal failed.
    case none
  }

  /// An event to send at `deadline`.
  mutating func add(_ event: Event, at deadline: SchedulerInstant) -> AddAction {
    guard !failed else { return .none }
    waiting.append((event, deadline))
    if armed { return .none }
    armed = true
    return .arm(deadline)
  }

  /// What to do after the timer fired.
  struct FireAction: Equatable {
    /// Whether the caller must send the posted events.
    var send: Bool
    /// The deadline to arm the timer for next, if events still wait.
    var rearm: SchedulerInstant?
  }

  /// The timer fired at `now`: every event due is posted, in order.
  mutating func fire(now: SchedulerInstant) -> FireAction {
    var send = false
    while let first = waiting.first, first.deadline <= now, let (event, _) = waiting.popFirst() {
      send = outbox.post(event) || send
    }
    armed = !waiting.isEmpty
    return FireAction(send: send, rearm: waiting.first?.deadline)
  }

  /// A failure: posted at once; the waiting events are dropped (handed back, to be released after the
  /// lock). Returns whether the caller must send.
  mutating func fail(_ failure: Event) -> (send: Bool, dropped: FIFOBuffer<(event: Event, deadline: SchedulerInstant)>)
  {
    guard !failed else { return (false, FIFOBuffer()) }
    failed = true
    armed = false
    var dropped = FIFOBuffer<(event: Event, deadline: SchedulerInstant)>()
    swap(&dropped, &waiting)
    return (outbox.post(failure), dropped)
  }
}

/// The storage of one `delay` subscription: the machine under a lock, its timer, and the sending.
final class DelayStorage<Element: Sendable, Failure: Error, S: Scheduler>: Sendable {
  private let observer: SignalObserver<Element, Failure>
  private let scheduler: S
  /// Holds the pending timer; disposing it cancels the delivery of what waits.
  let timer = SerialDisposable()
  private let state = Mutex(DelayStateMachine<SignalEvent<Element, Failure>>())

  init(observer: SignalObserver<Element, Failure>, scheduler: S) {
    self.observer = observer
    self.scheduler = scheduler
  }

  /// Queues `event` for `deadline`.
  func add(_ event: SignalEvent<Element, Failure>, at deadline: SchedulerInstant) {
    if case .arm(let deadline) = state.withCriticalRegion({ $0.add(event, at: deadline) }) { arm(at: deadline) }
  }

  /// A failure skips the queue: waiting events are dropped.
  func failNow(_ event: SignalEvent<Element, Failure>) {
    let failing = state.withCriticalRegion { $0.fail(event) }
    withExtendedLifetime(failing.dropped) {}
    timer.dispose()
    if failing.send { state.sendPosted(to: observer.send) }
  }

  private func arm(at deadline: SchedulerInstant) {
    timer.inner = scheduler.schedule(at: deadline, leeway: .zero) { self.fire() }
  }

  private func fire() {
    let now = scheduler.now
    let action = state.withCriticalRegion { $0.fire(now: now) }
    if let next = action.rearm { arm(at: next) }
    if action.send { state.sendPosted(to: observer.send) }
  }
}
