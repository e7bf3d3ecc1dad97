import AsyncSchedulers
import Synchronization

/// A hot signal you send to by hand, which replays up to `capacity` of its latest values (and its end)
/// to each new subscriber, then sends it what comes next (ReactiveObjC `RACReplaySubject`, Rx
/// `ReplaySubject`).
///
/// Sends are thread-safe: events from several threads, and new subscriptions, are handled one at a
/// time, in the order they arrive, by whichever thread is sending (so a subscriber gets the replay and
/// then the live events, none twice, none missed). Subscribers' handlers run on that thread, with no
/// lock held. A new subscriber's replay runs on the subscribing thread after its subscription is
/// registered, with none of the subject's turn held (so its handler may wait for a lock that another
/// subscribing or sending thread holds, as RxSwift 6's `ReplaySubject` allows); live events that come
/// meanwhile reach it after the replay, in order. A subscriber arriving after the end gets the replay and
/// the end at once.
public final class ReplaySignalSubject<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline enum Command: Sendable {
    case event(SignalEvent<Element, Failure>)
    case subscribe(UInt64, ReplayingObserver<Element, Failure>)
    case unsubscribe(UInt64)
  }

  @usableFromInline struct Hub {
    /// Subscribers in subscription order; a removed one leaves a hole until the next compaction.
    @usableFromInline var subscribers: [(id: UInt64, observer: ReplayingObserver<Element, Failure>)?] = []
    /// Where each subscriber sits in `subscribers`.
    @usableFromInline var slots: [UInt64: Int] = [:]
    @usableFromInline var replay: [Element]
    @usableFromInline var terminal: SignalEvent<Element, Failure>?

    @inlinable init(replay: [Element]) { self.replay = replay }

    @inlinable mutating func remove(_ id: UInt64) {
      guard let slot = slots.removeValue(forKey: id) else { return }
      subscribers[slot] = nil
      // Compact once holes are the majority: removal stays O(1) amortized, order is kept.
      if slots.count * 2 < subscribers.count {
        subscribers.removeAll { $0 == nil }
        for (index, subscriber) in subscribers.enumerated() { slots[subscriber!.id] = index }
      }
    }
  }

  /// Handles commands one at a time (the serializing observer), with the hub as its state.
  @usableFromInline let commands: SignalObserver<Command, Never>
  @usableFromInline let ids = SubscriberIDs()
  /// The latest value delivered (or the initial one): written by the command handler, in delivery
  /// order, and never after the end.
  @usableFromInline let latest: LatestValue<Element>
  /// The replay and the end, once the subject has ended (they never change after it): a subscriber
  /// arriving then gets them at once, on its own thread, also while the end is being delivered (a
  /// subscription made from an observer's end handler sees the end before that handler returns, as
  /// RxSwift's subjects give it).
  @usableFromInline let ending: SubjectEnding<Element, Failure>
  /// How many of the latest values are replayed.
  public let capacity: Int

  /// A subject replaying up to `capacity` values (`Int.max`: all of them).
  /// - Precondition: `capacity >= 0`.
  @inlinable public convenience init(capacity: Int = .max) {
    self.init(capacity: capacity, initial: nil)
  }

  /// A subject replaying up to `capacity` values, holding `initialValue` as if it had been sent (the
  /// bridge's `RACBehaviorSubject`).
  @inlinable package convenience init(capacity: Int, initialValue: Element) {
    self.init(capacity: capacity, initial: initialValue)
  }

  // Inlinable, as the sends are, so that a subject of a concrete element type runs specialized code:
  // unspecialized, each event paid dozens of generic metadata lookups (microseconds per event).
  @inlinable init(capacity: Int, initial: Element?) {
    checkArgument(capacity >= 0, "ReplaySignalSubject: capacity must not be negative (got \(capacity))")
    self.capacity = capacity
    let latest = LatestValue(initial)
    self.latest = latest
    let ending = SubjectEnding<Element, Failure>()
    self.ending = ending
    let hub = SubscriptionState(Hub(replay: initial.map { [$0] } ?? []))
    commands = SignalObserver { event in
      guard case .next(let command) = event else { return }
      switch command {
      case .event(let event):
        guard hub.value.terminal == nil else { return }
        if case .next(let value) = event {
          // The value replaced is released after the lock: its deinitializer may read `value`.
          let replaced = latest.value.withCriticalRegion { latest -> Element? in
            defer { latest = value }
            return latest
          }
          withExtendedLifetime(replaced) {}
        }
        if case .next(let value) = event, capacity > 0 {
          if hub.value.replay.count == capacity { hub.value.replay.removeFirst() }
          hub.value.replay.append(value)
        }
        if event.isTerminal {
          hub.value.terminal = event
          let replay = hub.value.replay
          ending.value.withCriticalRegion { $0 = (replay, event) }
        }
        for subscriber in hub.value.subscribers { subscriber?.observer.send(event) }
        if event.isTerminal {
          hub.value.subscribers = []
          hub.value.slots = [:]
        }
      case .subscribe(let id, let subscriber):
        // The replay is handed to the subscribing thread, which sends it with nothing of the subject
        // held (a handler may wait for a lock the thread of another subscription holds).
        var replay = hub.value.replay.map { SignalEvent<Element, Failure>.next($0) }
        if let terminal = hub.value.terminal {
          replay.append(terminal)
        } else {
          hub.value.slots[id] = hub.value.subscribers.count
          hub.value.subscribers.append((id, subscriber))
        }
        subscriber.commandRan(replay: replay)
      case .unsubscribe(let id):
        hub.value.remove(id)
      }
    }
  }

  /// Sends `value` to every subscriber (and keeps it for replay).
  @inlinable public func send(_ value: Element) {
    commands.send(.event(.next(value)))
  }

  /// Ends the subject successfully; later sends are ignored.
  @inlinable public func finish() { commands.send(.event(.finished)) }

  /// Ends the subject with `error`; later sends are ignored.
  @inlinable public func fail(_ error: Failure) { commands.send(.event(.failed(error))) }

  /// The latest value delivered to subscribers (or the initial one), if any: it follows the delivery
  /// order, and a value sent after the end is not taken.
  @inlinable package var latestValue: Element? { latest.value.withCriticalRegion { $0 } }

  /// The subject as a signal: each subscription gets the replay, then the live events.
  @inlinable public var signal: Signal<Element, Failure> {
    Signal { observer in
      if let ended = self.ending.value.withCriticalRegion({ $0 }) {
        for value in ended.replay { observer.send(value) }
        observer.send(ended.end)
        return AnyDisposable {}
      }
      let id = self.ids.next()
      let subscriber = ReplayingObserver(observer)
      self.commands.send(.subscribe(id, subscriber))
      subscriber.callerReturned()
      return AnyDisposable { self.commands.send(.unsubscribe(id)) }
    }
  }
}

/// The identities of a subject's subscriptions.
///
/// A class of its own so that the subject holds no noncopyable stored property: with an `Atomic`
/// stored in it, its inlinable initializer crashes Swift 6.3's optimizer in client modules
/// ("Found ownership error", CopyPropagation).
@usableFromInline final class SubscriberIDs: Sendable {
  @usableFromInline let last = Atomic<UInt64>(0)
  @inlinable init() {}
  /// A fresh identity.
  @inlinable func next() -> UInt64 { last.wrappingAdd(1, ordering: .relaxed).newValue }
}

/// A subject's replay and end, published when it ends.
@usableFromInline final class SubjectEnding<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline let value: Mutex<(replay: [Element], end: SignalEvent<Element, Failure>)?>
  @inlinable init() { value = Mutex(nil) }
}

/// The latest value of a subject, shared with its command handler.
@usableFromInline final class LatestValue<Element: Sendable>: Sendable {
  @usableFromInline let value: Mutex<Element?>
  @inlinable init(_ initial: Element?) { value = Mutex(initial) }
}

/// A hot signal you send to by hand, multicast to its current subscribers with no replay (ReactiveObjC
/// `RACSubject`, Rx `PublishSubject`). A subscriber arriving after the end gets the end at once.
///
/// Thread-safety and ordering as ``ReplaySignalSubject``.
public final class SignalSubject<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline let subject: ReplaySignalSubject<Element, Failure>

  /// A subject with no subscribers.
  @inlinable public init() { subject = ReplaySignalSubject(capacity: 0) }

  /// Sends `value` to every current subscriber.
  @inlinable public func send(_ value: Element) { subject.send(value) }

  /// Ends the subject successfully; later sends are ignored.
  @inlinable public func finish() { subject.finish() }

  /// Ends the subject with `error`; later sends are ignored.
  @inlinable public func fail(_ error: Failure) { subject.fail(error) }

  /// The subject as a signal.
  @inlinable public var signal: Signal<Element, Failure> { subject.signal }
}

/// A hot signal that holds a current value: each new subscriber gets it first, then what is sent
/// (ReactiveObjC `RACBehaviorSubject`, Rx `BehaviorSubject`, Combine's `CurrentValueSubject`).
///
/// Thread-safety and ordering as ``ReplaySignalSubject``.
public final class CurrentValueSignalSubject<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline let subject: ReplaySignalSubject<Element, Failure>

  /// A subject whose current value is `value`.
  @inlinable public init(_ value: Element) { subject = ReplaySignalSubject(capacity: 1, initial: value) }

  /// The current value: the latest delivered to subscribers, or the initial one. It follows the order
  /// in which values are delivered (so it always equals the last value subscribers got), and a `send`
  /// after `finish()` or `fail(_:)` does not change it. Reading it never blocks beyond a short lock.
  @inlinable public var value: Element { subject.latestValue! }

  /// Makes `value` the current value and sends it to every subscriber.
  @inlinable public func send(_ value: Element) { subject.send(value) }

  /// Ends the subject successfully; later sends are ignored.
  @inlinable public func finish() { subject.finish() }

  /// Ends the subject with `error`; later sends are ignored.
  @inlinable public func fail(_ error: Failure) { subject.fail(error) }

  /// The subject as a signal: the current value, then what is sent.
  @inlinable public var signal: Signal<Element, Failure> { subject.signal }
}
