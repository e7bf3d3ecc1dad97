import AsyncSchedulers
import AsyncSignals

/// RxSwift's `zip` of a collection of sources: the pure state of one subscription. Each source's
/// values wait in its queue; once every queue has one, the first of each is sent as an array. It
/// completes when every source has completed, or when a value arrives that can never be paired (it
/// waits alone and every other source has completed); it fails with the first error.
///
/// Events decided under the storage's lock are posted to ``outbox`` and sent after it, in order.
struct ZipCollectionStateMachine<Element: Sendable> {
  /// What the storage must do after an event.
  struct Action {
    /// Whether the caller must send the posted events.
    var send = false
    /// The source whose subscription to dispose (it completed; the zip goes on).
    var disposeSource: Int?
    /// Values that will never be sent (the zip ended), released after the lock.
    var dropped: [FIFOBuffer<Element>] = []
  }

  private var queues: [FIFOBuffer<Element>]
  private var completed: [Bool]
  private var completedCount = 0
  /// How many queues hold at least one value.
  private var waitingCount = 0
  /// Whether the zip has ended (nothing more is decided).
  private(set) var ended = false
  /// The events decided, waiting to be sent.
  var outbox = DrainQueue<SignalEvent<[Element], any Error>>()

  /// The state of a zip of `count` sources (at least one).
  init(count: Int) {
    queues = Array(repeating: FIFOBuffer(), count: count)
    completed = Array(repeating: false, count: count)
  }

  /// A value of source `index`.
  mutating func receive(_ value: Element, from index: Int) -> Action {
    guard !ended else { return Action() }
    queues[index].append(value)
    if queues[index].count == 1 { waitingCount += 1 }
    guard waitingCount == queues.count else {
      // Every other source completed: this value can never be paired.
      return completedCount == queues.count - 1 ? end(.finished) : Action()
    }
    var values: [Element] = []
    values.reserveCapacity(queues.count)
    waitingCount = 0
    for position in queues.indices {
      values.append(queues[position].popFirst()!)
      if !queues[position].isEmpty { waitingCount += 1 }
    }
    return Action(send: outbox.post(.next(values)))
  }

  /// Source `index` completed: the zip completes when every source has; otherwise that source's
  /// subscription is disposed and the zip goes on.
  mutating func complete(_ index: Int) -> Action {
    guard !ended, !completed[index] else { return Action() }
    completed[index] = true
    completedCount += 1
    return completedCount == queues.count ? end(.finished) : Action(disposeSource: index)
  }

  /// A source failed: the zip fails.
  mutating func fail(_ error: any Error) -> Action {
    guard !ended else { return Action() }
    return end(.failed(error))
  }

  private mutating func end(_ event: SignalEvent<[Element], any Error>) -> Action {
    ended = true
    var dropped: [FIFOBuffer<Element>] = []
    swap(&dropped, &queues)
    return Action(send: outbox.post(event), dropped: dropped)
  }
}
