import AsyncSchedulers
import Synchronization

/// The events of one `delay` subscription waiting for their time; pure.
///
/// Deadlines arrive in order (the delay is constant), so one timer, for the earliest, is enough. What
/// falls due is posted to the outbox in deadline order; a failure skips the queue.
@usableFromInline struct DelayStateMachine<Event: Sendable>: OutboxState {
  @usableFromInline var waiting = FIFOBuffer<(event: Event, deadline: SchedulerInstant)>()
  /// Whether a timer is armed for the earliest waiting event.
  @usableFromInline var armed = false
  /// Whether a failure was posted: nothing more is taken.
  @usableFromInline var failed = false
  @usableFromInline var outbox = DrainQueue<Event>()

  @inlinable init() {}

  /// How many events wait for their time.
  @inlinable var waitingCount: Int { waiting.count }

  /// What to do after adding an event.
  @usableFromInline enum AddAction: Equatable {
    /// Arm the timer for `deadline` (none was armed).
    case arm(SchedulerInstant)
    /// Nothing: a timer is armed for an earlier event, or the signal failed.
    case none
  }

  /// An event to send at `deadline`.
  @inlinable mutating func add(_ event: Event, at deadline: SchedulerInstant) -> AddAction {
    guard !failed else { return .none }
    waiting.append((event, deadline))
    if armed { return .none }
    armed = true
    return .arm(deadline)
  }

  /// What to do after the timer fired.
  @usableFromInline struct FireAction: Equatable {
    /// Whether the caller must send the posted events.
    @usableFromInline var send: Bool
    /// The deadline to arm the timer for next, if events still wait.
    @usableFromInline var rearm: SchedulerInstant?

    @inlinable init(send: Bool, rearm: SchedulerInstant?) {
      self.send = send
      self.rearm = rearm
    }
  }

  /// The timer fired at `now`: every event due is posted, in order.
  @inlinable mutating func fire(now: SchedulerInstant) -> FireAction {
    var send = false
    while let first = waiting.first, first.deadline <= now, let (event, _) = waiting.popFirst() {
      send = outbox.post(event) || send
    }
    armed = !waiting.isEmpty
    return FireAction(send: send, rearm: waiting.first?.deadline)
  }

  /// A failure: posted at once; the waiting events are dropped (handed back, to be released after the
  /// lock). Returns whether the caller must send.
  @inlinable mutating func fail(_ failure: Event) -> (
    send: Bool, dropped: FIFOBuffer<(event: Event, deadline: SchedulerInstant)>
  ) {
    guard !failed else { return (false, FIFOBuffer()) }
    failed = true
    armed = false
    var dropped = FIFOBuffer<(event: Event, deadline: SchedulerInstant)>()
    swap(&dropped, &waiting)
    return (outbox.post(failure), dropped)
  }
}

/// The storage of one `delay` subscription: the machine under a lock, its timer, and the sending.
@usableFromInline final class DelayStorage<Element: Sendable, Failure: Error, S: Scheduler>: Sendable {
  @usableFromInline let observer: SignalObserver<Element, Failure>
  @usableFromInline let scheduler: S
  /// Holds the pending timer; disposing it cancels the delivery of what waits.
  @usableFromInline let timer = SerialDisposable()
  @usableFromInline let state = Mutex(DelayStateMachine<SignalEvent<Element, Failure>>())

  @inlinable init(observer: SignalObserver<Element, Failure>, scheduler: S) {
    self.observer = observer
    self.scheduler = scheduler
  }

  /// Queues `event` for `deadline`.
  @inlinable func add(_ event: SignalEvent<Element, Failure>, at deadline: SchedulerInstant) {
    if case .arm(let deadline) = state.withCriticalRegion({ $0.add(event, at: deadline) }) { arm(at: deadline) }
  }

  /// A failure skips the queue: waiting events are dropped.
  @inlinable func failNow(_ event: SignalEvent<Element, Failure>) {
    let failing = state.withCriticalRegion { $0.fail(event) }
    withExtendedLifetime(failing.dropped) {}
    timer.dispose()
    if failing.send { state.sendPosted(to: observer.send) }
  }

  @inlinable func arm(at deadline: SchedulerInstant) {
    timer.inner = scheduler.schedule(at: deadline, leeway: .zero) { self.fire() }
  }

  @inlinable func fire() {
    let now = scheduler.now
    let action = state.withCriticalRegion { $0.fire(now: now) }
    if let next = action.rearm { arm(at: next) }
    if action.send { state.sendPosted(to: observer.send) }
  }
}
