import AsyncSchedulers

/// The event grammar of one subscription, enforced; pure, returns what the observer must do.
///
/// Events are delivered one at a time: a send that arrives while another is being delivered (from
/// another thread, or re-entrantly from the handler) is queued and delivered by the thread already
/// delivering, after the current event, in arrival order. After a terminal event, or once the
/// subscription is disposed, sends are dropped. The subscription's resources are disposed exactly
/// once: after the terminal event has been delivered, or when the subscription is disposed.
@usableFromInline package struct SignalObserverStateMachine<Event> {
  @usableFromInline package enum Phase: Equatable {
    /// Events are delivered.
    case active
    /// A terminal event was accepted; later sends are dropped.
    case terminated
    /// The subscription was disposed; nothing more is delivered.
    case disposed
  }

  @usableFromInline package private(set) var phase = Phase.active
  /// Whether a thread is delivering events now.
  @usableFromInline package private(set) var isDelivering = false
  @usableFromInline var pending = FIFOBuffer<Event>()
  /// What the subscription holds (the producer's disposable), until it is disposed.
  @usableFromInline var resources: (any Disposable)?
  /// Whether the resources were handed out to be disposed (they are disposed exactly once).
  @usableFromInline var resourcesReleased = false

  /// A fresh, active subscription.
  @inlinable package init() {}

  /// Whether the subscription has ended (terminal event accepted, or disposed).
  @inlinable package var isTerminated: Bool { phase != .active }

  /// What to do with a sent event.
  @usableFromInline package enum SendAction: Equatable {
    /// Drop it: the subscription ended.
    case drop
    /// Deliver it now, on the sending thread; then ask ``delivered()`` for more.
    case deliver
    /// Another thread delivers; it was queued behind the event being delivered.
    case queued
  }

  /// A producer sends `event`; `isTerminal` says whether it ends the signal.
  @inlinable package mutating func send(_ event: Event, isTerminal: Bool) -> SendAction {
    guard phase == .active else { return .drop }
    if isTerminal { phase = .terminated }
    if isDelivering {
      pending.append(event)
      return .queued
    }
    isDelivering = true
    return .deliver
  }

  /// The deliverer finished delivering an event: the next queued event to deliver, or `nil` (delivery
  /// ends) with the resources to dispose when the terminal event has now been delivered.
  @inlinable package mutating func delivered() -> (next: Event?, release: (any Disposable)?) {
    // Once disposed, `pending` is empty (dispose handed it out, and sends are dropped).
    if phase != .disposed, let next = pending.popFirst() { return (next, nil) }
    isDelivering = false
    if phase == .terminated { return (nil, takeResources()) }
    return (nil, nil)
  }

  /// The producer returned the subscription's resources: keep them, or, when the subscription has
  /// already released its resources (its terminal event was delivered, or it was disposed), return
  /// them to be disposed now. Called once per subscription.
  @inlinable package mutating func attach(_ disposable: any Disposable) -> (any Disposable)? {
    if resourcesReleased { return disposable }
    resources = disposable
    return nil
  }

  /// The subscriber disposes the subscription: queued events are dropped (handed back, to be released
  /// after the lock: an event's deinitializer may send to this very subscription), and the resources
  /// returned to be disposed (once). Returns `nil` for a second dispose.
  @inlinable package mutating func dispose() -> (release: (any Disposable)?, first: Bool, dropped: FIFOBuffer<Event>) {
    guard phase != .disposed else { return (nil, false, FIFOBuffer()) }
    phase = .disposed
    var dropped = FIFOBuffer<Event>()
    swap(&dropped, &pending)
    return (takeResources(), true, dropped)
  }

  @inlinable mutating func takeResources() -> (any Disposable)? {
    guard !resourcesReleased else { return nil }
    resourcesReleased = true
    defer { resources = nil }
    return resources
  }
}
