import AsyncSchedulers
import Synchronization

/// A time or combining operator's state, with the events it decided to send waiting in its outbox.
///
/// Such an operator decides on several kinds of threads: the upstream's (a value, the end), its timers',
/// its other sources'. Deciding under the lock and sending after it, two decisions could overtake each
/// other (a timer's value taken just before the upstream's end, but sent after it, and so dropped). So
/// a decision only *posts* its events to the outbox (the package's ``DrainQueue``), in the same critical
/// section that changed the state; whichever thread finds nobody sending becomes the sender and sends
/// everything posted, in order, with no lock held, until the outbox is empty. Every event reaches the
/// subscriber in the order it was decided.
@usableFromInline protocol OutboxState {
  associatedtype Output: Sendable
  var outbox: DrainQueue<Output> { get set }
}

extension Mutex where Value: OutboxState {
  /// Sends the posted events, in order, with no lock held while each is sent, until none is left (a
  /// decision made meanwhile by another thread posts here and leaves the sending to this thread).
  @inlinable func sendPosted(to send: (Value.Output) -> Void) {
    while let event = withCriticalRegion({ $0.outbox.next() }) { send(event) }
  }
}

/// A time or combining operator's state machine under its lock, shared by the closures of one
/// subscription.
@usableFromInline final class OutboxStorage<Machine: OutboxState>: Sendable {
  @usableFromInline let state: Mutex<Machine>

  @inlinable init(_ machine: sending Machine) { state = Mutex(machine) }
}
