/// What a ``Heap`` holds: an entry that knows its place in the order.
package protocol HeapEntry {
  /// Whether this entry comes before `other`: a strict order, ties broken by the entries themselves
  /// (the order they were scheduled in), so equal keys leave in the order they came.
  func precedes(_ other: Self) -> Bool
  /// Whether the entry at `a` comes before the one at `b`, reading them in place (no copy of an
  /// entry, so no reference it holds is retained or released while the heap sifts).
  static func precedes(_ a: Int, _ b: Int, in buffer: UnsafeMutableBufferPointer<Self>) -> Bool
  /// Called whenever the entry lands at `index` in the heap, and with -1 when it leaves it (entries
  /// that can be removed from the middle record their position here).
  func didMove(to index: Int)
}

extension HeapEntry {
  /// Does nothing: entries that are never removed from the middle need not know their position.
  package func didMove(to index: Int) {}

  /// Compares the two entries with ``precedes(_:)``.
  @inline(__always)
  package static func precedes(_ a: Int, _ b: Int, in buffer: UnsafeMutableBufferPointer<Self>) -> Bool {
    buffer[a].precedes(buffer[b])
  }
}

/// A binary min-heap of entries that know their order: the package's one heap. The core's timers and
/// alarms are ordered by deadline (``DeadlineHeap``, which also finds the wake-up serving the most
/// entries within their leeway); the Rx bridge's virtual-time scheduler by its converter's virtual time.
///
/// Sifting compares the entries in place and moves entries with `swapAt` on the storage buffer, so no
/// reference an entry holds is retained or released while the heap reorders. Not thread-safe: the
/// owner guards it with its lock.
package struct Heap<Entry: HeapEntry> {
  private(set) var storage: [Entry] = []

  package init() {}

  /// The number of entries.
  package var count: Int { storage.count }
  /// Whether there is no entry.
  package var isEmpty: Bool { storage.isEmpty }
  /// The earliest entry, if any.
  package var first: Entry? { storage.first }
  /// All entries, in no particular order.
  package var entries: [Entry] { storage }

  /// The entry at `index` (for identity checks before removing it).
  package subscript(index: Int) -> Entry { storage[index] }

  /// Inserts `entry`.
  package mutating func insert(_ entry: Entry) {
    storage.append(entry)
    let index = storage.count - 1
    entry.didMove(to: index)
    siftUp(index)
  }

  /// Removes and returns the earliest entry.
  ///
  /// Bottom-up: the hole the first entry leaves moves down to a leaf along the earlier child (one
  /// comparison and one move per level, where swapping the last entry down costs two comparisons and a
  /// swap), then the last entry fills it and sifts up, which it rarely does far: it came from the bottom.
  package mutating func popFirst() -> Entry? {
    guard let last = storage.popLast() else { return nil }
    guard !storage.isEmpty else {
      last.didMove(to: -1)
      return last
    }
    let first = storage.withUnsafeMutableBufferPointer { buffer -> Entry in
      let base = buffer.baseAddress!
      let count = buffer.count
      let first = base.move()
      var hole = 0
      while true {
        var child = 2 * hole + 1
        guard child < count else { break }
        if child + 1 < count && Self.precedes(child + 1, child, in: buffer) { child += 1 }
        (base + hole).moveInitialize(from: base + child, count: 1)
        base[hole].didMove(to: hole)
        hole = child
      }
      (base + hole).initialize(to: last)
      base[hole].didMove(to: hole)
      Self.siftUp(hole, in: buffer)
      return first
    }
    first.didMove(to: -1)
    return first
  }

  /// Removes and returns the entry at `index`.
  package mutating func remove(at index: Int) -> Entry {
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

  /// Whether the entry at `a` comes before the one at `b`, reading them in place.
  @inline(__always)
  private static func precedes(_ a: Int, _ b: Int, in buffer: UnsafeMutableBufferPointer<Entry>) -> Bool {
    Entry.precedes(a, b, in: buffer)
  }

  @inline(__always)
  private static func swapEntries(_ a: Int, _ b: Int, in buffer: UnsafeMutableBufferPointer<Entry>) {
    buffer.swapAt(a, b)
    buffer[a].didMove(to: a)
    buffer[b].didMove(to: b)
  }

  private mutating func siftUp(_ start: Int) {
    storage.withUnsafeMutableBufferPointer { Self.siftUp(start, in: $0) }
  }

  private static func siftUp(_ start: Int, in buffer: UnsafeMutableBufferPointer<Entry>) {
    var child = start
    while child > 0 {
      let parent = (child - 1) / 2
      guard precedes(child, parent, in: buffer) else { break }
      swapEntries(child, parent, in: buffer)
      child = parent
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
