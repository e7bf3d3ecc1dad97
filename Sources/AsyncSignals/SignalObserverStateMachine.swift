import AsyncSchedulers

/// The event grammar of one subscription, enforced; pure, returns what the observer must do.
///
/// Events are delivered one at a time, in the order they were sent, and each sender delivers its own:
/// - a send while nothing is delivered delivers at once, on the sending thread (it becomes the
///   *deliverer*);
/// - a send from the deliverer's own thread while it delivers (re-entrantly, from the handler) is queued
///   and delivered by that thread right after the current event;
/// - a send from another thread while one is delivered waits for its turn (its `Waiter`): when the
///   events ahead of it have been delivered, the deliverer hands the turn to it, and it delivers its own
///   event. So a send blocks only for the events sent before it (at most one per other sending thread,
///   plus their re-entrant ones), never for events sent after it.
///
/// After a terminal event, or once the subscription is disposed, sends are dropped; disposing wakes the
/// waiting senders (they return without delivering). The subscription's resources are disposed exactly
/// once: after the terminal event has been delivered, or when the subscription is disposed. Threads are
/// named by `Thread` values the storage passes in (its thread identities).
@usableFromInline package struct SignalObserverStateMachine<Event, Waiter: AnyObject, Thread: Equatable> {
  @usableFromInline package enum Phase: Equatable {
    /// Events are delivered.
    case active
    /// A terminal event was accepted; later sends are dropped.
    case terminated
    /// The subscription was disposed; nothing more is delivered.
    case disposed
  }

  /// An event waiting for delivery: re-entrant (delivered by the deliverer, `waiter == nil`), or held
  /// by a sender waiting for its turn.
  @usableFromInline struct Entry {
    @usableFromInline var event: Event?
    @usableFromInline var waiter: Waiter?
    @usableFromInline var thread: Thread?

    @inlinable init(event: Event?, waiter: Waiter?, thread: Thread?) {
      self.event = event
      self.waiter = waiter
      self.thread = thread
    }
  }

  @usableFromInline package private(set) var phase = Phase.active
  /// The thread delivering events now, if any.
  @usableFromInline package private(set) var deliverer: Thread?
  @usableFromInline var pending = FIFOBuffer<Entry>()
  /// What the subscription holds (the producer's disposable), until it is disposed.
  @usableFromInline var resources: (any Disposable)?
  /// Whether the resources were handed out to be disposed (they are disposed exactly once).
  @usableFromInline var resourcesReleased = false

  /// A fresh, active subscription.
  @inlinable package init() {}

  /// Whether the subscription has ended (terminal event accepted, or disposed).
  @inlinable package var isTerminated: Bool { phase != .active }

  /// Whether a thread is delivering events now.
  @inlinable package var isDelivering: Bool { deliverer != nil }

  /// What to do with a sent event.
  @usableFromInline package enum SendAction {
    /// Drop it: the subscription ended.
    case drop
    /// Deliver it now, on the sending thread; then ask ``delivered()`` for more.
    case deliver
    /// A re-entrant send: the sending thread delivers it after the current event.
    case queued
    /// Wait on `waiter` for the turn (``turnTaken(by:)`` says whether to deliver then).
    case wait(Waiter)
  }

  /// `thread` sends `event`; `isTerminal` says whether it ends the signal; `makeWaiter` makes what the
  /// sender waits on, if it must wait.
  /// `event` is evaluated only when the send is queued (re-entrant), the one case the machine keeps it.
  @inlinable package mutating func send(
    _ event: @autoclosure () -> Event, isTerminal: Bool, from thread: Thread, makeWaiter: () -> Waiter
  ) -> SendAction {
    guard phase == .active else { return .drop }
    if isTerminal { phase = .terminated }
    guard let deliverer else {
      self.deliverer = thread
      return .deliver
    }
    if deliverer == thread {
      pending.append(Entry(event: event(), waiter: nil, thread: nil))
      return .queued
    }
    let waiter = makeWaiter()
    pending.append(Entry(event: nil, waiter: waiter, thread: thread))
    return .wait(waiter)
  }

  /// What the deliverer does after delivering an event.
  @usableFromInline package enum DeliveredAction {
    /// Deliver this re-entrant event next.
    case deliver(Event)
    /// Hand the turn to `waiter` (wake it) and return: its sender delivers its own event.
    case handOff(Waiter)
    /// Delivery ends; dispose `release` (the resources, once the terminal event was delivered).
    case end(release: (any Disposable)?)
  }

  /// The deliverer finished delivering an event.
  @inlinable package mutating func delivered() -> DeliveredAction {
    // Once disposed, `pending` is empty (dispose handed it out, and sends are dropped).
    // (`isEmpty` first: the common case makes no optional entry, whose event is an existential.)
    if phase != .disposed, !pending.isEmpty, let next = pending.popFirst() {
      if let waiter = next.waiter {
        deliverer = next.thread
        return .handOff(waiter)
      }
      return .deliver(next.event!)
    }
    deliverer = nil
    if phase == .terminated { return .end(release: takeResources()) }
    return .end(release: nil)
  }

  /// A waiting sender woke: whether it now delivers its own event (the turn was handed to it), or
  /// returns (the subscription was disposed while it waited).
  @inlinable package func turnTaken(by thread: Thread) -> Bool {
    phase != .disposed && deliverer == thread
  }

  /// The producer returned the subscription's resources: keep them, or, when the subscription has
  /// already released its resources (its terminal event was delivered, or it was disposed), return
  /// them to be disposed now. Called once per subscription.
  @inlinable package mutating func attach(_ disposable: any Disposable) -> (any Disposable)? {
    if resourcesReleased { return disposable }
    resources = disposable
    return nil
  }

  /// What disposing does.
  @usableFromInline package struct Disposal {
    /// The resources to dispose (once).
    @usableFromInline package var release: (any Disposable)?
    /// Whether this was the first dispose.
    @usableFromInline package var first: Bool
    /// The queued re-entrant events, to be released after the lock (an event's deinitializer may send
    /// to this very subscription).
    @usableFromInline package var dropped: [Event]
    /// The senders waiting for their turn, to wake (they return without delivering).
    @usableFromInline package var waiters: [Waiter]

    @inlinable init(release: (any Disposable)?, first: Bool, dropped: [Event], waiters: [Waiter]) {
      self.release = release
      self.first = first
      self.dropped = dropped
      self.waiters = waiters
    }
  }

  /// The subscriber disposes the subscription: queued events are dropped, waiting senders woken, and
  /// the resources returned to be disposed (once).
  @inlinable package mutating func dispose() -> Disposal {
    guard phase != .disposed else { return Disposal(release: nil, first: false, dropped: [], waiters: []) }
    phase = .disposed
    var dropped: [Event] = []
    var waiters: [Waiter] = []
    while let entry = pending.popFirst() {
      if let event = entry.event { dropped.append(event) }
      if let waiter = entry.waiter { waiters.append(waiter) }
    }
    return Disposal(release: takeResources(), first: true, dropped: dropped, waiters: waiters)
  }

  @inlinable mutating func takeResources() -> (any Disposable)? {
    guard !resourcesReleased else { return nil }
    resourcesReleased = true
    defer { resources = nil }
    return resources
  }
}
