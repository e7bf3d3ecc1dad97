import AsyncSchedulers
import Synchronization

/// The window of one `throttle` subscription and the value held for its end; pure.
///
/// The first value opens a window and is posted at once; values within the window are dropped or,
/// with `latest`, the newest is held, posted when the window ends, and opens the next window. Given the
/// time of each value, a value arriving when its window's time is up (its timer not run yet: both due at
/// one instant) closes that window and opens the next, as Rx compares times; a value held then is
/// dropped for it. With `endsAfterWindow` (Rx's rule), a finish that finds a value held waits for the
/// window's end, posts the value, then the finish; otherwise the held value is posted at once, then the
/// finish.
@usableFromInline struct ThrottleStateMachine<Element: Sendable, Failure: Error>: OutboxState {
  @usableFromInline var isOpen = false
  @usableFromInline var held: Element?
  @usableFromInline var timer: ScheduledAction?
  /// Counts windows, so a timer of a window already closed does nothing.
  @usableFromInline var window: UInt64 = 0
  /// When the open window's time is up (`nil`: not known, values carry no time).
  @usableFromInline var windowEnds: SchedulerInstant?
  @usableFromInline var ended = false
  /// A finish waits for the window's end (with `endsAfterWindow`).
  @usableFromInline var finishing = false
  @usableFromInline let endsAfterWindow: Bool
  @usableFromInline var outbox = DrainQueue<SignalEvent<Element, Failure>>()

  @inlinable init(endsAfterWindow: Bool = false) { self.endsAfterWindow = endsAfterWindow }

  /// What to do after a value arrived or a window ended.
  @usableFromInline struct Action {
    /// Arm the timer ending this window.
    @usableFromInline var arm: UInt64?
    /// Whether the caller must send the posted events.
    @usableFromInline var send: Bool
    /// A timer to dispose: its window closed before it ran.
    @usableFromInline var cancel: ScheduledAction?

    @inlinable init(arm: UInt64?, send: Bool, cancel: ScheduledAction? = nil) {
      self.arm = arm
      self.send = send
      self.cancel = cancel
    }
  }

  /// A value arrived at `now` (`nil`: unknown): posted if no window is open (opening one that ends
  /// `interval` later), else held (with `latest`) or dropped.
  @inlinable mutating func receive(
    _ value: Element, latest: Bool, now: SchedulerInstant? = nil, interval: Duration = .zero
  ) -> Action {
    guard !ended, !finishing else { return Action(arm: nil, send: false) }
    var cancel: ScheduledAction?
    if isOpen, let now, let ends = windowEnds, now >= ends {
      // The window's time is up though its timer has not run: it closes now.
      isOpen = false
      held = nil
      cancel = timer
      timer = nil
    }
    if isOpen {
      if latest { held = value }
      return Action(arm: nil, send: false)
    }
    isOpen = true
    window &+= 1
    windowEnds = now?.advanced(by: interval)
    return Action(arm: window, send: outbox.post(.next(value)), cancel: cancel)
  }

  /// The timer of `window` exists: keep it, or return it to dispose when that window is over.
  @inlinable mutating func attach(_ timer: ScheduledAction, for window: UInt64) -> ScheduledAction? {
    guard window == self.window, isOpen else { return timer }
    self.timer = timer
    return nil
  }

  /// The timer of `window` fired at `now`: a held value is posted and opens the next window (unless a
  /// finish waits: then the finish follows it); otherwise the window closes (posting a waiting finish).
  @inlinable mutating func windowEnded(_ window: UInt64, now: SchedulerInstant? = nil, interval: Duration = .zero)
    -> Action
  {
    guard window == self.window, isOpen else { return Action(arm: nil, send: false) }
    timer = nil
    var send = false
    if let held {
      self.held = nil
      send = outbox.post(.next(held))
      if !finishing {
        self.window &+= 1
        windowEnds = now?.advanced(by: interval)
        return Action(arm: self.window, send: send)
      }
    }
    isOpen = false
    if finishing {
      finishing = false
      ended = true
      send = outbox.post(.finished) || send
    }
    return Action(arm: nil, send: send)
  }

  /// The end: a finish posts the held value first (at once, or with `endsAfterWindow` when the window
  /// ends), a failure drops it. Returns the timer to dispose and whether the caller must send.
  @inlinable mutating func end(_ event: SignalEvent<Element, Failure>) -> (cancel: ScheduledAction?, send: Bool) {
    guard !ended, !finishing else { return (nil, false) }
    if endsAfterWindow, case .finished = event, held != nil, isOpen {
      finishing = true
      return (nil, false)
    }
    ended = true
    var send = false
    if case .finished = event, let held { send = outbox.post(.next(held)) }
    send = outbox.post(event) || send
    return (drop(), send)
  }

  /// The subscription is disposed: the held value and the timer go.
  @inlinable mutating func drop() -> ScheduledAction? {
    ended = true
    finishing = false
    isOpen = false
    held = nil
    window &+= 1
    defer { timer = nil }
    return timer
  }
}

/// The storage of one `throttle` subscription: the machine under a lock, its timer, and the sending.
@usableFromInline final class ThrottleStorage<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline let observer: SignalObserver<Element, Failure>
  @usableFromInline let state: Mutex<ThrottleStateMachine<Element, Failure>>
  /// The window's length, and the clock values are read on (`nil`: values carry no time).
  @usableFromInline let interval: Duration
  @usableFromInline let now: (@Sendable () -> SchedulerInstant)?

  @inlinable init(
    observer: SignalObserver<Element, Failure>, interval: Duration = .zero,
    now: (@Sendable () -> SchedulerInstant)? = nil, endsAfterWindow: Bool = false
  ) {
    self.observer = observer
    self.interval = interval
    self.now = now
    state = Mutex(ThrottleStateMachine(endsAfterWindow: endsAfterWindow))
  }

  @inlinable func received(_ value: Element, latest: Bool, timer schedule: @escaping ScheduleTimer) {
    let now = now?()
    perform(
      state.withCriticalRegion { $0.receive(value, latest: latest, now: now, interval: interval) }, schedule: schedule)
  }

  @inlinable func perform(_ action: ThrottleStateMachine<Element, Failure>.Action, schedule: @escaping ScheduleTimer) {
    action.cancel?.dispose()
    if let window = action.arm {
      let timer = schedule { self.windowEnded(window, schedule: schedule) }
      state.withCriticalRegion { $0.attach(timer, for: window) }?.dispose()
    }
    if action.send { state.sendPosted(to: observer.send) }
  }

  @inlinable func windowEnded(_ window: UInt64, schedule: @escaping ScheduleTimer) {
    let now = now?()
    perform(state.withCriticalRegion { $0.windowEnded(window, now: now, interval: interval) }, schedule: schedule)
  }

  /// Ends the signal: a finish sends the held value first, a failure drops it.
  @inlinable func end(_ event: SignalEvent<Element, Failure>) {
    let action = state.withCriticalRegion { $0.end(event) }
    action.cancel?.dispose()
    if action.send { state.sendPosted(to: observer.send) }
  }

  /// Drops the held value and the timer (the subscription is disposed).
  @inlinable func drop() { state.withCriticalRegion { $0.drop() }?.dispose() }
}
