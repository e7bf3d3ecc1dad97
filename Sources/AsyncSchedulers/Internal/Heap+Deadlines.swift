/// What a ``DeadlineHeap`` holds: an entry ordered by deadline, then by order of scheduling.
protocol DeadlineHeapEntry: HeapEntry {
  /// When the entry is due: it never fires before.
  var deadline: SchedulerInstant { get }
  /// The latest instant it may fire at (its deadline plus its leeway).
  var latest: SchedulerInstant { get }
  /// Tie-breaker among equal deadlines: the order of scheduling.
  var sequence: UInt64 { get }
}

extension DeadlineHeapEntry {
  /// Whether this entry is due first: the earlier deadline, or the same one scheduled earlier.
  func precedes(_ other: Self) -> Bool {
    deadline < other.deadline || (deadline == other.deadline && sequence < other.sequence)
  }

  /// The same, reading the two entries' keys in place.
  @inline(__always)
  static func precedes(_ a: Int, _ b: Int, in buffer: UnsafeMutableBufferPointer<Self>) -> Bool {
    let x = buffer[a].deadline
    let y = buffer[b].deadline
    return x < y || (x == y && buffer[a].sequence < buffer[b].sequence)
  }
}

/// The core's timers and alarms: a ``Heap`` ordered by (deadline, sequence), which also answers when one
/// wake-up serves the most entries within their leeway (``Heap/firingWindow``), for leeway coalescing.
typealias DeadlineHeap<Entry: DeadlineHeapEntry> = Heap<Entry>

extension Heap where Entry: DeadlineHeapEntry {
  /// The earliest deadline, if any.
  var firstDeadline: SchedulerInstant? { first?.deadline }

  /// When one wake-up serves the most entries, each within its leeway: `end` is the earliest `latest`
  /// of all entries (no wake-up may come later), and `start` the latest deadline among the entries due
  /// by `end` (from then on, all of them are due). Firing anywhere in `start...end` fires that whole
  /// group, none early and none past its leeway.
  ///
  /// Only entries due by the first entry's `latest` can matter, and a heap's subtrees are due no
  /// earlier than their roots, so the search visits only those.
  var firingWindow: (start: SchedulerInstant, end: SchedulerInstant)? {
    guard let first else { return nil }
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
}
