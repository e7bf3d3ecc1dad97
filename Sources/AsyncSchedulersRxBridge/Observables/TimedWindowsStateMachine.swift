import AsyncSchedulers

/// What one `buffer(timeSpan:count:scheduler:)` or `window(timeSpan:count:scheduler:)` subscription
/// decided; pure. Each event returns what the storage must do; the deliveries are posted to the outbox
/// (the package's ``DrainQueue``) in the order decided, so a window closed by its timer on the
/// scheduler's thread and a window filled by the upstream's thread reach the subscriber in that order,
/// and a value never reaches a window before the subscriber was given it.
///
/// A window is closed by its timer or by its `count`-th value, whichever comes first; closing starts the
/// next window and its timer. `buffer` collects a window's values and sends them as one array when it
/// closes (the last one, even empty, at completion, as RxSwift); `window` sends each window when it
/// opens (the first at subscription) and forwards the values into it.
struct TimedWindowsStateMachine<Element: Sendable> {
  /// What the subscriber receives, in order.
  enum Delivery {
    /// `buffer`: a closed window's values.
    case batch([Element])
    /// `window`: a new window, for the subscriber.
    case open(PublishSubject<Element>)
    /// `window`: a value into its window.
    case value(Element, into: PublishSubject<Element>)
    /// `window`: a window closed.
    case close(PublishSubject<Element>)
    /// The upstream failed: the open window (if any) fails, then the subscriber.
    case fail(any Error, window: PublishSubject<Element>?)
    /// The upstream finished: the open window (if any) completes, then the subscriber.
    case finish(window: PublishSubject<Element>?)
  }

  /// Whether windows are sent as arrays when they close (`buffer`) or as subjects when they open.
  let collects: Bool
  let count: Int
  private(set) var outbox = DrainQueue<Delivery>()
  private var values: [Element] = []
  private var subject: PublishSubject<Element>?
  private var received = 0
  /// Bumped by each window, so a timer of an earlier one knows it is stale.
  private(set) var window: UInt64 = 0
  private(set) var ended = false

  init(collects: Bool, count: Int) {
    self.collects = collects
    self.count = count
  }

  /// What a storage does after an event: send what was posted (when it must start the drain), and
  /// start the timer of a new window.
  struct Action {
    var send = false
    var startTimer = false
  }

  /// The subscription starts: `window` opens its first window.
  mutating func start() -> Action {
    guard !collects else { return Action() }
    let first = PublishSubject<Element>()
    subject = first
    return Action(send: outbox.post(.open(first)))
  }

  /// A value from upstream: into the open window; the `count`-th closes it and opens the next.
  mutating func receive(_ value: Element) -> Action {
    guard !ended else { return Action() }
    var action = Action()
    if collects {
      values.append(value)
    } else if let subject {
      action.send = outbox.post(.value(value, into: subject))
    }
    received += 1
    guard received == count else { return action }
    action.send = closeAndOpen() || action.send
    action.startTimer = true
    return action
  }

  /// The timer of window `fired` went off: closes it and opens the next, unless it is stale.
  mutating func timerFired(for fired: UInt64) -> Action {
    guard fired == window, !ended else { return Action() }
    return Action(send: closeAndOpen(), startTimer: true)
  }

  /// The upstream ended; returns whether the caller must send.
  mutating func end(failing error: (any Error)?) -> Bool {
    guard !ended else { return false }
    ended = true
    if let error { return outbox.post(.fail(error, window: subject)) }
    if collects {
      let last = values
      values = []
      let send = outbox.post(.batch(last))
      return outbox.post(.finish(window: nil)) || send
    }
    return outbox.post(.finish(window: subject))
  }

  /// The subscription is disposed: nothing more is decided.
  mutating func dispose() { ended = true }

  /// The next delivery for the sender, or `nil` when the outbox is empty.
  mutating func nextDelivery() -> Delivery? { outbox.next() }

  private mutating func closeAndOpen() -> Bool {
    window &+= 1
    received = 0
    if collects {
      let batch = values
      values = []
      return outbox.post(.batch(batch))
    }
    let next = PublishSubject<Element>()
    defer { subject = next }
    var send = false
    if let subject { send = outbox.post(.close(subject)) }
    return outbox.post(.open(next)) || send
  }
}
