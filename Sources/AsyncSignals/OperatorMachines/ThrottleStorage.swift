import AsyncSchedulers
import Synchronization

/// The window of one `throttle` subscription and the value held for its end; pure.
///
/// The first value opens a window and is posted at once; values within the window are dropped or,
/// with `latest`, the newest is held, posted when the window ends, and opens the next window.
struct ThrottleStateMachine<Element: Sendable, Failure: Error>: OutboxState {
  private(set) var isOpen = false
  private(set) var held: Element?
  private var timer: ScheduledAction?
  /// Counts windows, so a timer of a window already closed does nothing.
  private(set) var window: UInt64 = 0
  private(set) var ended = false
  var outbox = DrainQueue<SignalEvent<Element, Failure>>()

  init() {}

  /// What to do after a value arrived or a window ended.
  struct Action: Equatable {
    /// Arm the timer ending this window.
    var arm: UInt64?
    /// Whether the caller must send the posted events.
    var send: Bool
  }

  /// A value arrived: posted if no window is open (opening one), else held (with `latest`) or dropped.
  mutating func receive(_ value: Element, latest: Bool) -> Action {
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
  mutating func attach(_ timer: ScheduledAction, for window: UInt64) -> ScheduledAction? {
    guard window == self.window, isOpen else { return timer }
    self.timer = timer
    return nil
  }

  /// The timer of `window` fired: a held value is posted and opens the next window; otherwise the
  /// window closes.
  mutating func windowEnded(_ window: UInt64) -> Action {
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
  mutating func end(_ event: SignalEvent<Element, Failure>) -> (cancel: ScheduledAction?, send: Bool) {
    guard !ended else { return (nil, false) }
    ended = true
    var send = false
    if case .finished = event, let held { send = outbox.post(.next(held)) }
    send = outbox.post(event) || send
    return (drop(), send)
  }

  /// The subscription is disposed: the held value and the timer go.
  mutating func drop() -> ScheduledAction? {
    ended = true
    isOpen = false
    held = nil
    window &+= 1
    defer { timer = nil }
    return timer
  }
}

/// The storage of one `throttle` subscription: the machine under a lock, its timer, and the sending.
final class ThrottleStorage<Element: Sendable, Failure: Error>: Sendable {
  private let observer: SignalObserver<Element, Failure>
  private let state = Mutex(ThrottleStateMachine<Element, Failure>())

  init(observer: SignalObserver<Element, Failure>) { self.observer = observer }

  func received(_ value: Element, latest: Bool, timer schedule: @escaping ScheduleTimer) {
    perform(state.withCriticalRegion { $0.receive(value, latest: latest) }, schedule: schedule)
  }

  private func perform(_ action: ThrottleStateMachine<Element, Failure>.Action, schedule: @escaping ScheduleTimer) {
    if let window = action.arm {
      let timer = schedule { self.windowEnded(window, schedule: schedule) }
      state.withCriticalRegion { $0.attach(timer, for: window) }?.dispose()
    }
    if action.send { state.sendPosted(to: observer.send) }
  }

  private func windowEnded(_ window: UInt64, schedule: @escaping ScheduleTimer) {
    perform(state.withCriticalRegion { $0.windowEnded(window) }, schedule: schedule)
  }

  /// Ends the signal: a finish sends the held value first, a failure drops it.
  func end(_ event: SignalEvent<Element, Failure>) {
    let action = state.withCriticalRegion { $0.end(event) }
    action.cancel?.dispose()
    if action.send { state.sendPosted(to: observer.send) }
  }

  /// Drops the held value and the timer (the subscription is disposed).
  func drop() { state.withCriticalRegion { $0.drop() }?.dispose() }
}
