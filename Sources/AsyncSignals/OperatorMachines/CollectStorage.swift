import AsyncSchedulers
import Synchronization

/// The batch one `collect(every:)` subscription is filling, and its timer; pure.
///
/// The first value of a batch arms a timer; when it fires the batch is posted. Each batch has a
/// number, so a timer of a batch already sent (by the end) does nothing.
@usableFromInline struct CollectStateMachine<Element: Sendable, Failure: Error>: OutboxState {
  @usableFromInline var values: [Element] = []
  @usableFromInline var timer: ScheduledAction?
  @usableFromInline var batch: UInt64 = 0
  @usableFromInline var ended = false
  @usableFromInline var outbox = DrainQueue<SignalEvent<[Element], Failure>>()

  @inlinable init() {}

  /// A value joins the batch; returns the batch whose timer to arm when it is the batch's first.
  @inlinable mutating func add(_ value: Element) -> UInt64? {
    guard !ended else { return nil }
    values.append(value)
    return values.count == 1 ? batch : nil
  }

  /// The timer of `batch` exists: keep it, or return it to dispose when that batch is gone.
  @inlinable mutating func attach(_ timer: ScheduledAction, for batch: UInt64) -> ScheduledAction? {
    guard batch == self.batch, !values.isEmpty else { return timer }
    self.timer = timer
    return nil
  }

  /// The timer of `batch` fired: the batch is posted. Returns whether the caller must send.
  @inlinable mutating func fire(_ batch: UInt64) -> Bool {
    guard batch == self.batch, !values.isEmpty else { return false }
    let values = take().values
    return outbox.post(.next(values))
  }

  /// The end: a finish posts the batch being collected first, a failure drops it. Returns the timer
  /// to dispose and whether the caller must send.
  @inlinable mutating func end(_ event: SignalEvent<[Element], Failure>) -> (cancel: ScheduledAction?, send: Bool) {
    guard !ended else { return (nil, false) }
    ended = true
    let (values, timer) = take()
    var send = false
    if case .finished = event, !values.isEmpty { send = outbox.post(.next(values)) }
    send = outbox.post(event) || send
    return (timer, send)
  }

  /// The subscription is disposed: the batch and its timer go.
  @inlinable mutating func drop() -> ScheduledAction? {
    ended = true
    return take().timer
  }

  @inlinable mutating func take() -> (values: [Element], timer: ScheduledAction?) {
    defer {
      values = []
      timer = nil
      batch &+= 1
    }
    return (values, timer)
  }
}

/// The storage of one `collect(every:)` subscription: the machine under a lock, its timer, and the
/// sending.
@usableFromInline final class CollectStorage<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline let observer: SignalObserver<[Element], Failure>
  @usableFromInline let state = Mutex(CollectStateMachine<Element, Failure>())

  @inlinable init(observer: SignalObserver<[Element], Failure>) { self.observer = observer }

  @inlinable func add(_ value: Element, timer schedule: ScheduleTimer) {
    guard let batch = state.withCriticalRegion({ $0.add(value) }) else { return }
    let timer = schedule { self.fire(batch) }
    state.withCriticalRegion { $0.attach(timer, for: batch) }?.dispose()
  }

  @inlinable func fire(_ batch: UInt64) {
    if state.withCriticalRegion({ $0.fire(batch) }) { state.sendPosted(to: observer.send) }
  }

  /// Ends the signal: a finish sends the batch being collected first, a failure drops it.
  @inlinable func end(_ event: SignalEvent<[Element], Failure>) {
    let action = state.withCriticalRegion { $0.end(event) }
    action.cancel?.dispose()
    if action.send { state.sendPosted(to: observer.send) }
  }

  /// Drops the batch and its timer (the subscription is disposed).
  @inlinable func drop() { state.withCriticalRegion { $0.drop() }?.dispose() }
}
