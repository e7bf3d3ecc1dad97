/// A binary min-heap of timers ordered by (deadline, sequence), with O(log n) removal of any entry.
///
/// Each entry carries its own ordering key, so sifting compares plain values and moves entries with
/// `swapAt` (no reference counting), and each action records its index (`heapIndex`), so disposing a
/// timer removes it at once instead of leaving a tombstone until its deadline. Not thread-safe: the
/// owning scheduler guards it with its lock.
package struct TimerHeap {
  private struct Entry {
    var deadline: SchedulerInstant
    var sequence: UInt64
    var action: ScheduledTimer
  }

  private var storage: [Entry] = []

  package init() {}

  /// The number of pending timers.
  package var count: Int { storage.count }
  /// Whether no timer is pending.
  package var isEmpty: Bool { storage.isEmpty }
  /// The earliest timer, if any.
  package var first: ScheduledTimer? { storage.first?.action }
  /// The earliest deadline, if any.
  package var firstDeadline: SchedulerInstant? { storage.first?.deadline }
  /// All pending timers, in no particular order.
  package var unordered: [ScheduledTimer] { storage.map(\.action) }

  @inline(__always)
  private func precedes(_ a: Int, _ b: Int) -> Bool {
    let x = storage[a]
    let y = storage[b]
    return x.deadline < y.deadline || (x.deadline == y.deadline && x.sequence < y.sequence)
  }

  @inline(__always)
  private mutating func swapEntries(_ a: Int, _ b: Int) {
    storage.swapAt(a, b)
    storage[a].action.heapIndex = a
    storage[b].action.heapIndex = b
  }

  /// Inserts `action` at its `deadline` and `sequence`; it must not already be in a heap.
  package mutating func insert(_ action: ScheduledTimer) {
    action.heapIndex = storage.count
    storage.append(Entry(deadline: action.deadline, sequence: action.sequence, action: action))
    siftUp(storage.count - 1)
  }

  /// Removes and returns the earliest timer.
  package mutating func popFirst() -> ScheduledTimer? {
    guard !storage.isEmpty else { return nil }
    return remove(at: 0)
  }

  /// Removes `action` if it is in this heap; returns whether it was.
  @discardableResult
  package mutating func remove(_ action: ScheduledTimer) -> Bool {
    let index = action.heapIndex
    guard index >= 0, index < storage.count, storage[index].action === action else { return false }
    _ = remove(at: index)
    return true
  }

  /// Removes every timer and returns them.
  package mutating func removeAll() -> [ScheduledTimer] {
    let all = storage.map(\.action)
    storage = []
    for action in all { action.heapIndex = -1 }
    return all
  }

  private mutating func remove(at index: Int) -> ScheduledTimer {
    let last = storage.count - 1
    if index != last { swapEntries(index, last) }
    let removed = storage.removeLast().action
    removed.heapIndex = -1
    if index < storage.count {
      siftDown(index)
      siftUp(index)
    }
    return removed
  }

  private mutating func siftUp(_ start: Int) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard precedes(child, parent) else { break }
      swapEntries(child, parent)
      child = parent
    }
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    let count = storage.count
    while true {
      var candidate = 2 * parent + 1
      guard candidate < count else { break }
      if candidate + 1 < count && precedes(candidate + 1, candidate) { candidate += 1 }
      guard precedes(candidate, parent) else { break }
      swapEntries(candidate, parent)
      parent = candidate
    }
  }
}
