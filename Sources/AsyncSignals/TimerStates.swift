import AsyncSchedulers
import Synchronization

/// Schedules one timer; the timing operators pass the scheduler's `schedule(after:)` through it.
typealias ScheduleTimer = @Sendable (_ fire: @escaping @Sendable () -> Void) -> ScheduledAction

/// The events of one `delay` subscription waiting for their time, with one timer for the earliest.
final class DelayTimeline<Element: Sendable, Failure: Error, S: Scheduler>: Sendable {
  private let observer: SignalObserver<Element, Failure>
  private let scheduler: S
  /// Holds the pending timer; disposing it cancels the delivery of what waits.
  let timer = SerialDisposable()
  private let state = Mutex<(events: [(SignalEvent<Element, Failure>, SchedulerInstant)], armed: Bool)>(([], false))

  init(observer: SignalObserver<Element, Failure>, scheduler: S) {
    self.observer = observer
    self.scheduler = scheduler
  }

  /// Queues `event` for `deadline` (deadlines arrive in order: the delay is constant).
  func add(_ event: SignalEvent<Element, Failure>, at deadline: SchedulerInstant) {
    let arm = state.withCriticalRegion { state -> Bool in
      state.events.append((event, deadline))
      if state.armed { return false }
      state.armed = true
      return true
    }
    if arm { timer.inner = scheduler.schedule(at: deadline, leeway: .zero) { self.fire() } }
  }

  /// Sends what is due, then arms the timer for the next deadline.
  private func fire() {
    let now = scheduler.now
    let (due, next) = state.withCriticalRegion { state -> ([SignalEvent<Element, Failure>], SchedulerInstant?) in
      let count = state.events.prefix { $0.1 <= now }.count
      let due = state.events.prefix(count).map(\.0)
      state.events.removeFirst(count)
      state.armed = !state.events.isEmpty
      return (due, state.events.first?.1)
    }
    for event in due { observer.send(event) }
    if let next { timer.inner = scheduler.schedule(at: next, leeway: .zero) { self.fire() } }
  }

  /// A failure skips the queue: waiting events are dropped.
  func failNow(_ event: SignalEvent<Element, Failure>) {
    state.withCriticalRegion { $0.events.removeAll() }
    timer.dispose()
    observer.send(event)
  }
}

/// The value a `debounce` subscription holds back, when it falls due, and its timer.
final class PendingValue<Element: Sendable, Failure: Error>: Sendable {
  private struct State {
    var value: Element?
    var due = SchedulerInstant.distantFuture
    var timer: ScheduledAction?
    var generation: UInt64 = 0
  }

  private let observer: SignalObserver<Element, Failure>
  private let state = Mutex(State())

  init(observer: SignalObserver<Element, Failure>) { self.observer = observer }

  /// Holds `value` (due at `due`) instead of the pending one and restarts the timer. A pending value
  /// already due at `now` (its timer has not run yet) is sent first: its interval of silence is over.
  func replace(_ value: Element, now: SchedulerInstant, due: SchedulerInstant, timer schedule: ScheduleTimer) {
    let (generation, overdue, previous) = state.withCriticalRegion { state in
      let overdue = state.due <= now ? state.value : nil
      state.value = value
      state.due = due
      state.generation &+= 1
      defer { state.timer = nil }
      return (state.generation, overdue, state.timer)
    }
    previous?.dispose()
    if let overdue { observer.send(overdue) }
    let timer = schedule { self.fire(generation) }
    let stale = state.withCriticalRegion { state -> ScheduledAction? in
      // A newer value may have replaced this one meanwhile: then this timer is the stale one.
      guard state.generation == generation else { return timer }
      state.timer = timer
      return nil
    }
    stale?.dispose()
  }

  private func fire(_ generation: UInt64) {
    let value = state.withCriticalRegion { state -> Element? in
      guard state.generation == generation else { return nil }
      defer { state = State(generation: state.generation) }
      return state.value
    }
    if let value { observer.send(value) }
  }

  /// Sends the pending value now, if any.
  func flush() {
    let (value, timer) = take()
    timer?.dispose()
    if let value { observer.send(value) }
  }

  /// Drops the pending value and its timer.
  func drop() { take().timer?.dispose() }

  private func take() -> (value: Element?, timer: ScheduledAction?) {
    state.withCriticalRegion { state in
      defer { state = State(generation: state.generation &+ 1) }
      return (state.value, state.timer)
    }
  }
}

/// The window of a `throttle` subscription and the value held for its end.
final class ThrottleState<Element: Sendable, Failure: Error>: Sendable {
  private let observer: SignalObserver<Element, Failure>
  private let state = Mutex<(open: Bool, held: Element?, timer: ScheduledAction?)>((false, nil, nil))

  init(observer: SignalObserver<Element, Failure>) { self.observer = observer }

  func received(_ value: Element, latest: Bool, timer schedule: @escaping ScheduleTimer) {
    let sendNow = state.withCriticalRegion { state -> Bool in
      if state.open {
        if latest { state.held = value }
        return false
      }
      state.open = true
      return true
    }
    guard sendNow else { return }
    observer.send(value)
    let timer = schedule { self.windowEnded(schedule: schedule) }
    state.withCriticalRegion { $0.timer = timer }
  }

  /// The window ended: a held value is sent now and opens the next window.
  private func windowEnded(schedule: @escaping ScheduleTimer) {
    let held = state.withCriticalRegion { state -> Element? in
      defer { state.held = nil }
      if state.held == nil {
        state.open = false
        state.timer = nil
      }
      return state.held
    }
    guard let held else { return }
    observer.send(held)
    let timer = schedule { self.windowEnded(schedule: schedule) }
    state.withCriticalRegion { $0.timer = timer }
  }

  func flush() {
    let (held, timer) = state.withCriticalRegion { state in
      defer {
        state.held = nil
        state.timer = nil
      }
      return (state.held, state.timer)
    }
    timer?.dispose()
    if let held { observer.send(held) }
  }

  func drop() {
    state.withCriticalRegion { state -> ScheduledAction? in
      defer {
        state.held = nil
        state.timer = nil
      }
      return state.timer
    }?.dispose()
  }
}

/// The batch a `collect(every:)` subscription is filling, and its timer.
final class BatchState<Element: Sendable, Failure: Error>: Sendable {
  private let observer: SignalObserver<[Element], Failure>
  private let state = Mutex<(values: [Element], timer: ScheduledAction?)>(([], nil))

  init(observer: SignalObserver<[Element], Failure>) { self.observer = observer }

  func add(_ value: Element, timer schedule: ScheduleTimer) {
    let first = state.withCriticalRegion { state -> Bool in
      state.values.append(value)
      return state.values.count == 1
    }
    guard first else { return }
    let timer = schedule { self.flush() }
    state.withCriticalRegion { $0.timer = timer }
  }

  func flush() {
    let (values, timer) = state.withCriticalRegion { state in
      defer {
        state.values = []
        state.timer = nil
      }
      return (state.values, state.timer)
    }
    timer?.dispose()
    if !values.isEmpty { observer.send(values) }
  }

  func drop() {
    state.withCriticalRegion { state -> ScheduledAction? in
      defer {
        state.values = []
        state.timer = nil
      }
      return state.timer
    }?.dispose()
  }
}
