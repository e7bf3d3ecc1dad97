/// Items posted from any thread and handed, in order, to one drainer at a time: the package's one
/// "post, one thread drains" queue. Pure; its owner keeps it under its lock.
///
/// Posting tells the poster whether it must start a drain (nobody is draining); the drainer takes the
/// items one at a time (``next()``) or in batches (``takeAll(into:)``), with no lock held while it
/// handles them, until the queue is empty, which ends the drain. So items posted by several threads are
/// handled in the order they were posted, never two at once, and an item posted during a drain is taken
/// by that drain, not by a second one. Used by the signal operators' outboxes (events sent in the order
/// decided), `observe(on:)`'s delivery jobs, RAC's serial queue over a concurrent core and Rx's
/// `observe(on:)` over a scheduler with no core.
@usableFromInline package struct DrainQueue<Item> {
  @usableFromInline var pending = FIFOBuffer<Item>()
  /// Whether a drain is started (scheduled or running).
  @usableFromInline package internal(set) var isDraining = false

  /// An empty queue with no drain.
  @inlinable package init() {}

  /// The number of items waiting.
  @inlinable package var count: Int { pending.count }

  /// Whether nothing waits.
  @inlinable package var isEmpty: Bool { pending.isEmpty }

  /// Posts `item`; returns whether the caller must start a drain (nobody drains now).
  @inlinable package mutating func post(_ item: Item) -> Bool {
    pending.append(item)
    if isDraining { return false }
    isDraining = true
    return true
  }

  /// The next item for the drainer, or `nil` when the queue is empty: the drain ends, and the next post
  /// starts a new one.
  @inlinable package mutating func next() -> Item? {
    if let item = pending.popFirst() { return item }
    isDraining = false
    return nil
  }

  /// Moves every waiting item into `batch` (emptied first) and returns `true`, or, when none waits,
  /// ends the drain and returns `false`. A drainer taking batches swaps buffers instead of popping.
  @inlinable package mutating func takeAll(into batch: inout [Item]) -> Bool {
    batch.removeAll(keepingCapacity: true)
    if pending.isEmpty {
      isDraining = false
      return false
    }
    pending.moveAll(into: &batch)
    return true
  }
}

extension DrainQueue: Sendable where Item: Sendable {}
