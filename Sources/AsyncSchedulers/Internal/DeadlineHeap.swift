/// What a ``DeadlineHeap`` holds: an entry carrying its own ordering key.
protocol DeadlineHeapEntry {
  /// When the entry is due: it never fires before.
  var deadline: SchedulerInstant { get }
  /// The latest instant it may fire at (its deadline plus its leeway).
  var latest: SchedulerInstant { get }
  /// Tie-breaker among equal deadlines: the order of scheduling.
  var sequence: UInt64 { get }
  /// Called whenever the entry lands at `index` in the heap, and with -1 when it leaves it (entries
  /// that can be removed from the middle record their position here).
  func didMove(to index: Int)
}

/// A binary min-heap ordered by (deadline, sequence), which also answers when one wake-up serves the
/// most entries within their leeway (``firingWindow``), for leeway coalescing.
///
/// Sifting compares the keys in place and moves entries with `swapAt` on the storage buffer, so no
/// reference an entry holds is retained or released while the heap reorders. Not thread-safe: the
/// owner guards it with its lock.
struct DeadlineHeap<Entry: DeadlineHeapEntry> {
  private var storage: [Entry] = []

  init() {}

  /// The number of entries.
  var count: Int { storage.count }
  /// Whether there is no entry.
  var isEmpty: Bool { storage.isEmpty }
  /// The earliest entry, if any.
  var first: Entry? { storage.first }
  /// The earliest deadline, if any.
  var firstDeadline: SchedulerInstant? { storage.first?.deadline }
  /// All entries, in no particular order.
  var entries: [Entry] { storage }

  /// When one wake-up serves the most entries, each within its leeway: `end` is the earliest `latest`
  /// of all entries (no wake-up may come later), and `start` the latest deadline among the entries due
  /// by `end` (from then on, all of them are due). Firing anywhere in `start...end` fires that whole
  /// group, none early and none past its leeway.
  ///
  /// Only entries due by the first entry's `latest` can matter, and a heap's subtrees are due no
  /// earlier than their roots, so the search visits only those.
  var firingWindow: (start: SchedulerInstant, end: SchedulerInstant)? {
    guard let first = storage.first else { return nil }
    var end = first.latest
    guard end > first.deadline else { return (first.deadline, end) }
    var start = first.deadline
    storage.withUnsafeBufferPointer { buffer in
      // Pass 1: the end of the window; pass 2: the latest deadline due by then.
      for pass in 0..<2 {
        var pending = [1, 2]
        while let index = pending.popLast() {
          guard index < buffer.count, buffer[index].deadline <= end else { continue }
          if pass == 0 {
            end = Swift.min(end, buffer[index].latest)
          } else {
            start = Swift.max(start, buffer[index].deadline)
          }
          pending.append(2 * index + 1)
          pending.append(2 * index + 2)
        }
      }
    }
    return (start, end)
  }

  /// The entry at `index` (for identity checks before removing it).
  subscript(index: Int) -> Entry { storage[index] }

  /// Inserts `entry`.
  mutating func insert(_ entry: Entry) {
    storage.append(entry)
    let index = storage.count - 1
    entry.didMove(to: index)
    siftUp(index)
  }

  /// Removes and returns the earliest entry.
  mutating func popFirst() -> Entry? {
    guard !storage.isEmpty else { return nil }
    return remove(at: 0)
  }

  /// Removes and returns the entry at `index`.
  mutating func remove(at index: Int) -> Entry {
    let last = storage.count - 1
    if index != last { storage.withUnsafeMutableBufferPointer { Self.swapEntries(index, last, in: $0) } }
    let removed = storage.removeLast()
    removed.didMove(to: -1)
    if index < storage.count {
      siftDown(index)
      siftUp(index)
    }
    return removed
  }

  /// Whether the entry at `a` comes before the one at `b`, reading the keys in place.
  @inline(__always)
  private static func precedes(_ a: Int, _ b: Int, in buffer: UnsafeMutableBufferPointer<Entry>) -> Bool {
    let x = buffer[a].deadline
    let y = buffer[b].deadline
    return x < y || (x == y && buffer[a].sequence < buffer[b].sequence)
  }

  @inline(__always)
  private static func swapEntries(_ a: Int, _ b: Int, in buffer: UnsafeMutableBufferPointer<Entry>) {
    buffer.swapAt(a, b)
    buffer[a].didMove(to: a)
    buffer[b].didMove(to: b)
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
