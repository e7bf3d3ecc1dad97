/// The heap of a scheduler's timers (``ScheduledTimer`` handles), with O(log n) removal of any of them.
///
/// Each timer records its index (`heapIndex`), so disposing a timer removes it at once instead of
/// leaving a tombstone until its deadline. Not thread-safe: the owning scheduler guards it with its
/// lock.
package struct TimerHeap {
  /// One pending timer and its key.
  package struct Entry: DeadlineHeapEntry {
    /// When the timer is due.
    package var deadline: SchedulerInstant
    /// Tie-breaker among equal deadlines: the order of scheduling.
    package var sequence: UInt64
    /// The timer.
    package var timer: ScheduledTimer

    @inline(__always)
    package func didMove(to index: Int) { timer.heapIndex = index }
  }

  private var heap = DeadlineHeap<Entry>()

  package init() {}

  /// The number of pending timers.
  package var count: Int { heap.count }
  /// Whether no timer is pending.
  package var isEmpty: Bool { heap.isEmpty }
  /// The earliest entry, if any.
  package var first: Entry? { heap.first }
  /// The earliest deadline, if any.
  package var firstDeadline: SchedulerInstant? { heap.firstDeadline }
  /// The earliest entry's sequence number, if any.
  package var firstSequence: UInt64? { heap.firstSequence }
  /// All pending entries, in no particular order.
  package var entries: [Entry] { heap.entries }

  /// Inserts `timer`, due at `deadline`; it must not already be in a heap.
  package mutating func insert(_ timer: ScheduledTimer, deadline: SchedulerInstant, sequence: UInt64) {
    heap.insert(Entry(deadline: deadline, sequence: sequence, timer: timer))
  }

  /// Removes and returns the earliest entry.
  package mutating func popFirst() -> Entry? { heap.popFirst() }

  /// Removes `timer` if it is in this heap; returns whether it was.
  @discardableResult
  package mutating func remove(_ timer: ScheduledTimer) -> Bool {
    let index = timer.heapIndex
    guard index >= 0, index < heap.count, heap[index].timer === timer else { return false }
    _ = heap.remove(at: index)
    return true
  }
}
