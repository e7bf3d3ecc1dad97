/// A binary min-heap of timers ordered by (deadline, sequence), with O(log n) removal of any entry.
///
/// Each entry records its own index (`heapIndex`), so disposing a timer removes it at once instead of
/// leaving a tombstone until its deadline. Not thread-safe: the owning scheduler guards it.
package struct TimerHeap {
  private var storage: [ScheduledAction] = []

  package init() {}

  /// The number of pending timers.
  package var count: Int { storage.count }
  /// Whether no timer is pending.
  package var isEmpty: Bool { storage.isEmpty }
  /// The earliest timer, if any.
  package var first: ScheduledAction? { storage.first }
  /// All pending timers, in no particular order.
  package var unordered: [ScheduledAction] { storage }

  @inline(__always)
  private static func precedes(_ a: ScheduledAction, _ b: ScheduledAction) -> Bool {
    a.deadline < b.deadline || (a.deadline == b.deadline && a.sequence < b.sequence)
  }

  /// Inserts `action`, which must not already be in a heap.
  package mutating func insert(_ action: ScheduledAction) {
    action.heapIndex = storage.count
    storage.append(action)
    siftUp(storage.count - 1)
  }

  /// Removes and returns the earliest timer.
  package mutating func popFirst() -> ScheduledAction? {
    guard !storage.isEmpty else { return nil }
    return remove(at: 0)
  }

  /// Removes `action` if it is in this heap; returns whether it was.
  @discardableResult
  package mutating func remove(_ action: ScheduledAction) -> Bool {
    let index = action.heapIndex
    guard index >= 0, index < storage.count, storage[index] === action else { return false }
    _ = remove(at: index)
    return true
  }

  /// Removes every timer and returns them.
  package mutating func removeAll() -> [ScheduledAction] {
    let all = storage
    storage = []
    for action in all { action.heapIndex = -1 }
    return all
  }

  private mutating func remove(at index: Int) -> ScheduledAction {
    let removed = storage[index]
    let last = storage.removeLast()
    if index < storage.count {
      storage[index] = last
      last.heapIndex = index
      siftDown(index)
      siftUp(last.heapIndex)
    }
    removed.heapIndex = -1
    return removed
  }

  private mutating func siftUp(_ start: Int) {
    var child = start
    let item = storage[child]
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.precedes(item, storage[parent]) else { break }
      storage[child] = storage[parent]
      storage[child].heapIndex = child
      child = parent
    }
    storage[child] = item
    item.heapIndex = child
  }

  private mutating func siftDown(_ start: Int) {
    var parent = start
    let item = storage[parent]
    let count = storage.count
    while true {
      var candidate = 2 * parent + 1
      guard candidate < count else { break }
      if candidate + 1 < count && Self.precedes(storage[candidate + 1], storage[candidate]) { candidate += 1 }
      guard Self.precedes(storage[candidate], item) else { break }
      storage[parent] = storage[candidate]
      storage[parent].heapIndex = parent
      parent = candidate
    }
    storage[parent] = item
    item.heapIndex = parent
  }
}
