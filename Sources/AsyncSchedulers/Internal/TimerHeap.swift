/// A binary min-heap of timers ordered by (deadline, sequence), with O(log n) removal of any entry.
///
/// Each entry carries its ordering key, so sifting compares plain values and moves entries with
/// `swapAt` (no reference counting), and each timer records its index (`heapIndex`), so disposing a timer
/// removes it at once instead of leaving a tombstone until its deadline. Not thread-safe: the owning
/// scheduler guards it with its lock.
package struct TimerHeap {
  /// One pending timer and its key.
  package struct Entry {
    /// When the timer is due.
    package var deadline: SchedulerInstant
    /// Tie-breaker among equal deadlines: the order of scheduling.
    package var sequence: UInt64
    /// The timer.
    package var timer: ScheduledTimer
  }

  private var storage: [Entry] = []

  package init() {}

  /// The number of pending timers.
  package var count: Int { storage.count }
  /// Whether no timer is pending.
  package var isEmpty: Bool { storage.isEmpty }
  /// The earliest entry, if any.
  package var first: Entry? { storage.first }
  /// The earliest deadline, if any.
  package var firstDeadline: SchedulerInstant? { storage.first?.deadline }
  /// All pending entries, in no particular order.
  package var entries: [Entry] { storage }

  /// Whether the entry at `a` comes before the one at `b`. Reads the keys in place, so no timer
  /// reference is copied (and retained) to compare.
  @inline(__always)
  private static func precedes(_ a: Int, _ b: Int, in buffer: UnsafeMutableBufferPointer<Entry>) -> Bool {
    let x = buffer[a].deadline
    let y = buffer[b].deadline
    return x < y || (x == y && buffer[a].sequence < buffer[b].sequence)
  }

  @inline(__always)
  private static func swapEntries(_ a: Int, _ b: Int, in buffer: UnsafeMutableBufferPointer<Entry>) {
    buffer.swapAt(a, b)
    buffer[a].timer.heapIndex = a
    buffer[b].timer.heapIndex = b
  }

  /// Inserts `timer`, due at `deadline`; it must not already be in a heap.
  package mutating func insert(_ timer: ScheduledTimer, deadline: SchedulerInstant, sequence: UInt64) {
    timer.heapIndex = storage.count
    storage.append(Entry(deadline: deadline, sequence: sequence, timer: timer))
    siftUp(storage.count - 1)
  }

  /// Removes and returns the earliest entry.
  package mutating func popFirst() -> Entry? {
    guard !storage.isEmpty else { return nil }
    return remove(at: 0)
  }

  /// Removes `timer` if it is in this heap; returns whether it was.
  @discardableResult
  package mutating func remove(_ timer: ScheduledTimer) -> Bool {
    let index = timer.heapIndex
    guard index >= 0, index < storage.count, storage[index].timer === timer else { return false }
    _ = remove(at: index)
    return true
  }

  private mutating func remove(at index: Int) -> Entry {
    let last = storage.count - 1
    if index != last { storage.withUnsafeMutableBufferPointer { Self.swapEntries(index, last, in: $0) } }
    let removed = storage.removeLast()
    removed.timer.heapIndex = -1
    if index < storage.count {
      siftDown(index)
      siftUp(index)
    }
    return removed
  }

  private mutating func siftUp(_ start: Int) {
    storage.withUnsafeMutableBufferPointer { buffer in
      var child = start
      while child > 0 {
        let parent = (child - 1) / 2
        guard Self.precedes(child, parent, in: buffer) else { break }
        Self.swapEntries(child, parent, in: buffer)
        child = parent
      }
    }
  }

  private mutating func siftDown(_ start: Int) {
    storage.withUnsafeMutableBufferPointer { buffer in
      var parent = start
      let count = buffer.count
      while true {
        var candidate = 2 * parent + 1
        guard candidate < count else { break }
        if candidate + 1 < count && Self.precedes(candidate + 1, candidate, in: buffer) { candidate += 1 }
        guard Self.precedes(candidate, parent, in: buffer) else { break }
        Self.swapEntries(candidate, parent, in: buffer)
        parent = candidate
      }
    }
  }
}
