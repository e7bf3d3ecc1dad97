/// The one heap of a scheduler's timers: handles (``ScheduledTimer``, removable at once when disposed)
/// and fire-and-forget closures, ordered together by (deadline, sequence), each with its leeway.
///
/// Each handle records its index (`heapIndex`), so disposing a timer removes it at once instead of
/// leaving a tombstone until its deadline: the heap writes that field into the ``ScheduledTimer``
/// objects it holds, the one thing it changes outside itself. Not thread-safe: the owning scheduler
/// guards it (and so every `heapIndex`) with its lock.
struct TimerHeap {
  /// What fires: a handle, or a closure with no handle (``Scheduler/execute(at:leeway:_:)``).
  enum Payload {
    /// A timer with a handle.
    case timer(ScheduledTimer)
    /// A fire-and-forget closure, kept in the entry itself.
    case closure(@Sendable () -> Void)
  }

  /// One pending timer and its keys (48 bytes: the leeway sits in what would be the payload's padding).
  struct Entry: DeadlineHeapEntry {
    /// When the timer is due.
    var deadline: SchedulerInstant
    /// Tie-breaker among equal deadlines: the order of scheduling.
    var sequence: UInt64
    /// What fires.
    var payload: Payload
    /// How late it may fire, in whole microseconds (rounded down, and at most about 71 minutes: a
    /// smaller leeway only makes the timer stricter).
    var leewayMicroseconds: UInt32

    /// The latest instant it may fire at: `deadline` plus its leeway.
    @inline(__always)
    var latest: SchedulerInstant {
      leewayMicroseconds == 0 ? deadline : deadline.advanced(by: .microseconds(leewayMicroseconds))
    }

    /// The handle, for a timer that has one.
    var timer: ScheduledTimer? {
      if case .timer(let timer) = payload { return timer }
      return nil
    }

    /// The leeway the timer keeps (see `leewayMicroseconds`).
    var leeway: Duration { .microseconds(leewayMicroseconds) }

    @inline(__always)
    func didMove(to index: Int) {
      if case .timer(let timer) = payload { timer.heapIndex = index }
    }
  }

  private var heap = DeadlineHeap<Entry>()

  init() {}

  /// The number of pending timers.
  var count: Int { heap.count }
  /// Whether no timer is pending.
  var isEmpty: Bool { heap.isEmpty }
  /// The earliest entry, if any.
  var first: Entry? { heap.first }
  /// The earliest deadline, if any.
  var firstDeadline: SchedulerInstant? { heap.firstDeadline }
  /// When one wake-up fires the most timers, each within its leeway (see ``Heap/firingWindow``).
  var firingWindow: (start: SchedulerInstant, end: SchedulerInstant)? { heap.firingWindow }
  /// All pending entries, in no particular order.
  var entries: [Entry] { heap.entries }

  /// Inserts `timer`, due at `deadline` and at most `leeway` late; it must not already be in a heap.
  /// A negative leeway counts as zero.
  mutating func insert(
    _ timer: ScheduledTimer, deadline: SchedulerInstant, leeway: Duration = .zero, sequence: UInt64
  ) {
    insert(.timer(timer), deadline: deadline, leeway: leeway, sequence: sequence)
  }

  /// Inserts `payload`, due at `deadline` and at most `leeway` late (a negative leeway counts as zero).
  mutating func insert(_ payload: Payload, deadline: SchedulerInstant, leeway: Duration, sequence: UInt64) {
    let microseconds = leeway > .zero ? UInt32(clamping: leeway.saturatingNanoseconds / 1000) : 0
    heap.insert(Entry(deadline: deadline, sequence: sequence, payload: payload, leewayMicroseconds: microseconds))
  }

  /// Removes and returns the earliest entry.
  mutating func popFirst() -> Entry? { heap.popFirst() }

  /// Removes `timer` if it is in this heap; returns whether it was.
  @discardableResult
  mutating func remove(_ timer: ScheduledTimer) -> Bool {
    let index = timer.heapIndex
    guard index >= 0, index < heap.count, heap[index].timer === timer else { return false }
    _ = heap.remove(at: index)
    return true
  }
}
