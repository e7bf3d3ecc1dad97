/// The decisions of one `delay` subscription, as RxSwift's `delay` makes them: each value and the
/// completion are sent `dueTime` after they arrived, **one per scheduled action** (an event already due
/// when the previous one was sent gets an action of its own, scheduled with the time it has left, so on
/// RxTest's scheduler a value and the completion that arrived together are sent a tick apart); an error
/// is sent at once, dropping what waits, unless a drain is sending, which then sends it next.
///
/// Pure: the storage (``RxDelay``) calls it under its lock with the scheduler's time (a `Duration` on
/// the scheduler's clock) and performs the action it returns after releasing the lock.
struct RxDelayStateMachine<Element: Sendable> {
  /// What to do after an upstream event.
  enum ReceivedAction {
    case none
    /// Schedule a drain `dueTime` from now (nothing was scheduled).
    case scheduleDrain
    /// Send the error now and end the subscription.
    case sendFailure(any Error)
  }

  /// What a drain does next.
  enum DrainAction {
    /// Nothing left for this drain.
    case stop
    /// Send this event, then ask ``sent()``; after a completion, end the subscription.
    case send(Event<Element>)
    /// Send the error and end the subscription.
    case sendFailure(any Error)
    /// Schedule the next drain for the event that arrived at `arrival` (`dueTime` after it).
    case scheduleDrain(arrival: Duration)
  }

  /// The events waiting, with their arrival times, oldest first (`head` is the next).
  private var waiting: [(arrival: Duration, event: Event<Element>)] = []
  private var head = 0
  /// A drain is scheduled or running.
  private var active = false
  /// A drain is sending.
  private var running = false
  /// The error that arrived, until it is sent.
  private var failure: (any Error)?
  /// The subscription has ended (an error or the completion was sent, or it was disposed).
  private(set) var ended = false

  /// An upstream event arrived at `time`.
  mutating func received(_ event: Event<Element>, at time: Duration) -> ReceivedAction {
    guard !ended, failure == nil else { return .none }
    if case .error(let error) = event {
      waiting = []
      head = 0
      guard !running else {
        failure = error
        return .none
      }
      ended = true
      return .sendFailure(error)
    }
    waiting.append((time, event))
    guard !active else { return .none }
    active = true
    return .scheduleDrain
  }

  /// A scheduled drain starts: it sends the oldest event waiting.
  mutating func drainStarted() -> DrainAction {
    guard !ended, failure == nil else { return .stop }
    running = true
    guard head < waiting.count else { return finishDrain() }
    let event = waiting[head].event
    advanceHead()
    if case .completed = event { ended = true }
    return .send(event)
  }

  /// The drain sent its event: an error that arrived meanwhile goes next; else the next event waiting
  /// gets a drain of its own.
  mutating func sent() -> DrainAction {
    guard !ended else { return .stop }
    if let failure {
      self.failure = nil
      ended = true
      return .sendFailure(failure)
    }
    return finishDrain()
  }

  /// Disposal: nothing more is sent.
  mutating func dispose() {
    ended = true
    waiting = []
    head = 0
  }

  private mutating func finishDrain() -> DrainAction {
    running = false
    guard head < waiting.count else {
      active = false
      return .stop
    }
    return .scheduleDrain(arrival: waiting[head].arrival)
  }

  private mutating func advanceHead() {
    head += 1
    // Compact once the sent part is the larger half: amortized O(1) per event, order kept.
    if head * 2 > waiting.count {
      waiting.removeFirst(head)
      head = 0
    }
  }
}
