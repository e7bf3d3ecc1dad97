import AsyncSchedulers
import Synchronization

/// The window of one `throttle` subscription and the value held for its end; pure.
///
/// The first value opens a window and is posted at once; values within the window are dropped or,
/// with `latest`, the newest is held, posted when the window ends, and opens the next window.
@usableFromInline struct ThrottleStateMachine<Element: Sendable, Failure: Error>: OutboxState {
  @usableFromInline var isOpen = false
  @usableFromInline var held: Element?
  @usableFromInline var timer: ScheduledAction?
  /// Counts windows, so a timer of a window already closed does nothing.
  @usableFromInline var window: UInt64 = 0
  @usableFromInline var ended = false
  @usableFromInline var outbox = DrainQueue<SignalEvent<Element, Failure>>()

  @inlinable init() {}

  /// What to do after a value arrived or a window ended.
  @usableFromInline struct Action: Equatable {
    /// Arm the timer ending this window.
    @usableFromInline var arm: UInt64?
    /// Whether the caller must send the posted events.
    @usableFromInline var send: Bool

    @inlinable init(arm: UInt64?, send: Bool) {
      self.arm = arm
      self.send = send
    }
  }

  /// A value arrived: posted if no window is open (opening one), else held (with `latest`) or dropped.
  @inlinable mutating func receive(_ value: Element, latest: Bool) -> Action {
    guard !ended else { return Action(arm: nil, send: false) }
    if isOpen {
      if latest { held = value }
      return Action(arm: nil, send: false)
    }
    isOpen = true
    window &+= 1
    return Action(arm: window, send: outbox.post(.next(value)))
  }

  /// The timer of `window` exists: keep it, or return it to dispose when that window is over.
  @inlinable mutating func attach(_ timer: ScheduledAction, for window: UInt64) -> ScheduledAction? {
    guard window == self.window, isOpen else { return timer }
    self.timer = timer
    return nil
  }

  /// The timer of `window` fired: a held value is posted and opens the next window; otherwise the
  /// window closes.
  @inlinable mutating func windowEnded(_ window: UInt64) -> Action {
    guard window == self.window, isOpen else { return Action(arm: nil, send: false) }
    timer = nil
    guard let held else {
      isOpen = false
      return Action(arm: nil, send: false)
    }
    self.held = nil
    self.window &+= 1
    return Action(arm: self.window, send: outbox.post(.next(held)))
  }

  /// The end: a finish posts the held value first, a failure drops it. Returns the timer to dispose
  /// and whether the caller must send.
  @inlinable mutating func end(_ event: SignalEvent<Element, Failure>) -> (cancel: ScheduledAction?, send: Bool) {
    guard !ended else { return (nil, false) }
    ended = true
    var send = false
    if case .finished = event, let held { send = outbox.post(.next(held)) }
    send = outbox.post(event) || send
    return (drop(), send)
  }

  /// The subscription is disposed: the held value and the timer go.
  @inlinable mutating func drop() -> ScheduledAction? {
    ended = true
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
  @usableFromInline let state = Mutex(ThrottleStateMachine<Element, Failure>())

  @inlinable init(observer: SignalObserver<Element, Failure>) { self.observer = observer }

  @inlinable func received(_ value: Element, latest: Bool, timer schedule: @escaping ScheduleTimer) {
    perform(state.withCriticalRegion { $0.receive(value, latest: latest) }, schedule: schedule)
  }

  @inlinable func perform(_ action: ThrottleStateMachine<Element, Failure>.Action, schedule: @escaping ScheduleTimer) {
    if let window = action.arm {
      let timer = schedule { self.windowEnded(window, schedule: schedule) }
      state.withCriticalRegion { $0.attach(timer, for: window) }?.dispose()
    }
    if action.send { state.sendPosted(to: observer.send) }
  }

  @inlinable func windowEnded(_ window: UInt64, schedule: @escaping ScheduleTimer) {
    perform(state.withCriticalRegion { $0.windowEnded(window) }, schedule: schedule)
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
