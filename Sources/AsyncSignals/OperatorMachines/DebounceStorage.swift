import AsyncSchedulers
import Synchronization

/// The value one `debounce` subscription holds back, when it falls due, and its timer; pure.
///
/// Each held value gets a generation; a timer carries the generation it was armed for, so a timer that
/// fires for a value since replaced (or sent, or dropped) does nothing. Sends are posted to the outbox.
@usableFromInline struct DebounceStateMachine<Element: Sendable, Failure: Error>: OutboxState {
  @usableFromInline var value: Element?
  @usableFromInline var due = SchedulerInstant.distantFuture
  @usableFromInline var timer: ScheduledAction?
  @usableFromInline var generation: UInt64 = 0
  /// Whether the end was posted: nothing more is taken.
  @usableFromInline var ended = false
  @usableFromInline var outbox = DrainQueue<SignalEvent<Element, Failure>>()

  @inlinable init() {}

  /// What to do after holding a new value.
  @usableFromInline struct ReplaceAction {
    /// Arm a timer for this generation (at the new value's due time).
    @usableFromInline var arm: UInt64?
    /// The previous value's timer, to dispose.
    @usableFromInline var cancel: ScheduledAction?
    /// Whether the caller must send the posted events.
    @usableFromInline var send: Bool

    @inlinable init(arm: UInt64?, cancel: ScheduledAction?, send: Bool) {
      self.arm = arm
      self.cancel = cancel
      self.send = send
    }
  }

  /// Holds `value`, due at `due`, instead of the held one. A held value already due at `now` (its timer
  /// has not run yet) is posted first: its interval of silence is over.
  @inlinable mutating func replace(_ value: Element, now: SchedulerInstant, due: SchedulerInstant) -> ReplaceAction {
    guard !ended else { return ReplaceAction(arm: nil, cancel: nil, send: false) }
    var send = false
    if let overdue = self.value, self.due <= now { send = outbox.post(.next(overdue)) }
    self.value = value
    self.due = due
    generation &+= 1
    defer { timer = nil }
    return ReplaceAction(arm: generation, cancel: timer, send: send)
  }

  /// The timer armed for `generation` exists: keep it, or return it to dispose when its value is
  /// already gone.
  @inlinable mutating func attach(_ timer: ScheduledAction, for generation: UInt64) -> ScheduledAction? {
    guard generation == self.generation, value != nil else { return timer }
    self.timer = timer
    return nil
  }

  /// The timer of `generation` fired: the held value is posted, if it is still that one. Returns
  /// whether the caller must send.
  @inlinable mutating func fire(_ generation: UInt64) -> Bool {
    guard generation == self.generation, let value = take().value else { return false }
    return outbox.post(.next(value))
  }

  /// A value that is not debounced: posted at once; the held one is dropped (ReactiveObjC's
  /// `-throttle:valuesPassingTest:`). Returns the timer to dispose, the dropped value (to release after
  /// the lock) and whether the caller must send.
  @inlinable mutating func sendNow(_ value: Element) -> (cancel: ScheduledAction?, dropped: Element?, send: Bool) {
    guard !ended else { return (nil, nil, false) }
    let (held, timer) = take()
    return (timer, held, outbox.post(.next(value)))
  }

  /// The end: a finish posts the held value first, a failure drops it. Returns the timer to dispose
  /// and whether the caller must send.
  @inlinable mutating func end(_ event: SignalEvent<Element, Failure>) -> (cancel: ScheduledAction?, send: Bool) {
    guard !ended else { return (nil, false) }
    ended = true
    let (held, timer) = take()
    var send = false
    if case .finished = event, let held { send = outbox.post(.next(held)) }
    send = outbox.post(event) || send
    return (timer, send)
  }

  /// The subscription is disposed: the held value and its timer go.
  @inlinable mutating func drop() -> ScheduledAction? {
    ended = true
    return take().timer
  }

  @inlinable mutating func take() -> (value: Element?, timer: ScheduledAction?) {
    defer {
      value = nil
      due = .distantFuture
      timer = nil
      generation &+= 1
    }
    return (value, timer)
  }
}

/// The storage of one `debounce` subscription: the machine under a lock, its timers, and the sending.
@usableFromInline final class DebounceStorage<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline let observer: SignalObserver<Element, Failure>
  @usableFromInline let state = Mutex(DebounceStateMachine<Element, Failure>())

  @inlinable init(observer: SignalObserver<Element, Failure>) { self.observer = observer }

  /// Holds `value` (due at `due`) instead of the pending one and restarts the timer.
  @inlinable func replace(_ value: Element, now: SchedulerInstant, due: SchedulerInstant, timer schedule: ScheduleTimer)
  {
    let action = state.withCriticalRegion { $0.replace(value, now: now, due: due) }
    action.cancel?.dispose()
    if action.send { state.sendPosted(to: observer.send) }
    guard let generation = action.arm else { return }
    let timer = schedule { self.fire(generation) }
    state.withCriticalRegion { $0.attach(timer, for: generation) }?.dispose()
  }

  @inlinable func fire(_ generation: UInt64) {
    if state.withCriticalRegion({ $0.fire(generation) }) { state.sendPosted(to: observer.send) }
  }

  /// Sends `value` at once, dropping the pending one.
  @inlinable func sendNow(_ value: Element) {
    let action = state.withCriticalRegion { $0.sendNow(value) }
    action.cancel?.dispose()
    withExtendedLifetime(action.dropped) {}
    if action.send { state.sendPosted(to: observer.send) }
  }

  /// Ends the signal: a finish sends the pending value first, a failure drops it.
  @inlinable func end(_ event: SignalEvent<Element, Failure>) {
    let action = state.withCriticalRegion { $0.end(event) }
    action.cancel?.dispose()
    if action.send { state.sendPosted(to: observer.send) }
  }

  /// Drops the pending value and its timer (the subscription is disposed).
  @inlinable func drop() { state.withCriticalRegion { $0.drop() }?.dispose() }
}

/// Schedules one timer; the timing operators pass the scheduler's `schedule(after:)` through it.
@usableFromInline typealias ScheduleTimer = @Sendable (_ fire: @escaping @Sendable () -> Void) -> ScheduledAction
