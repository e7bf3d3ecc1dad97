import AsyncSchedulers
import Synchronization

/// The events a time operator decided to send, in the order it decided them, and whether a thread is
/// sending them. Pure; kept inside the operator's state, under its lock.
///
/// A time operator decides on two kinds of threads: the upstream's (a value, the end) and its timers'.
/// Deciding under the lock and sending after it, the two could overtake each other (a timer's value
/// taken just before the upstream's end, but sent after it, and so dropped). So a decision only
/// *posts* its events here, in the same critical section that changed the state; whichever thread finds
/// nobody sending becomes the sender and sends everything posted, in order, with no lock held, until
/// the outbox is empty. Every event reaches the subscriber in the order it was decided.
struct OrderedOutbox<Event> {
  private var queue = FIFOBuffer<Event>()
  /// Whether a thread is sending the posted events now.
  private(set) var isSending = false

  init() {}

  /// Whether nothing waits to be sent.
  var isEmpty: Bool { queue.isEmpty }

  /// Posts `event`; returns whether the caller must now send (nobody else is).
  mutating func post(_ event: Event) -> Bool {
    queue.append(event)
    if isSending { return false }
    isSending = true
    return true
  }

  /// The next event for the sender, or `nil` when the outbox is empty (the sender stops).
  mutating func nextToSend() -> Event? {
    if let event = queue.popFirst() { return event }
    isSending = false
    return nil
  }
}

/// A time operator's state with its outbox; its storage sends what the state posts.
protocol OutboxState {
  associatedtype Output: Sendable
  var outbox: OrderedOutbox<Output> { get set }
}

extension Mutex where Value: OutboxState {
  /// Sends the posted events, in order, with no lock held while each is sent, until none is left (a
  /// decision made meanwhile by another thread posts here and leaves the sending to this thread).
  func sendPosted(to send: (Value.Output) -> Void) {
    while let event = withCriticalRegion({ $0.outbox.nextToSend() }) { send(event) }
  }
}

/// A time or combining operator's state machine under its lock, shared by the closures of one
/// subscription.
final class OutboxStorage<Machine: OutboxState>: Sendable {
  let state: Mutex<Machine>

  init(_ machine: sending Machine) { state = Mutex(machine) }
}
