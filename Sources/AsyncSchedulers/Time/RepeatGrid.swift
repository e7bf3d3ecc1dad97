/// The deadlines of a repeating timer, `start + interval × k` for k = 0, 1, 2, …, computed exactly.
///
/// All arithmetic is on whole attoseconds in 128-bit integers: no floating point, so a grid anchored at
/// any representable instant (``SchedulerInstant/distantPast`` included) gives the exact grid point,
/// never a rounded one that is already past, and never traps.
struct RepeatGrid: Sendable {
  /// The first deadline.
  let start: SchedulerInstant
  /// The distance between deadlines (positive).
  let interval: Duration
  /// The deadline most recently handed out (`start` before the first call).
  private var last: SchedulerInstant

  /// A grid starting at `start`, every `interval`.
  /// - Precondition: `interval > .zero`.
  init(start: SchedulerInstant, interval: Duration) {
    checkArgument(interval > .zero, "RepeatGrid: interval must be greater than zero (got \(interval))")
    self.start = start
    self.interval = interval
    self.last = start
  }

  /// The next deadline after the last one handed out that is later than `now`, skipping grid points
  /// already in the past (missed ticks are coalesced into the one being fired); `nil` when that point
  /// lies beyond the end of the timeline (``SchedulerInstant/distantFuture``), so the timer ends.
  mutating func nextDeadline(after now: SchedulerInstant) -> SchedulerInstant? {
    let following = last.advanced(by: interval)
    let next = following > now ? following : Self.firstPoint(start: start, interval: interval, after: now)
    guard next > now, next < .distantFuture else { return nil }
    last = next
    return next
  }

  /// The first grid point strictly after `instant` (saturating at ``SchedulerInstant/distantFuture``).
  static func firstPoint(
    start: SchedulerInstant, interval: Duration, after instant: SchedulerInstant
  ) -> SchedulerInstant {
    let behind = start.duration(to: instant).attoseconds
    let step = interval.attoseconds
    guard behind >= 0 else { return start }
    return point(start: start, step: step, index: behind / step + 1)
  }

  /// The index of the latest grid point at or before `instant` (0 when `instant` precedes `start`).
  static func latestIndex(
    start: SchedulerInstant, interval: Duration, atOrBefore instant: SchedulerInstant
  ) -> Int128 {
    let behind = start.duration(to: instant).attoseconds
    guard behind >= 0 else { return 0 }
    return behind / interval.attoseconds
  }

  /// Grid point number `index` (saturating at the ends of the timeline).
  static func point(start: SchedulerInstant, interval: Duration, index: Int128) -> SchedulerInstant {
    point(start: start, step: interval.attoseconds, index: index)
  }

  private static func point(start: SchedulerInstant, step: Int128, index: Int128) -> SchedulerInstant {
    let (offset, overflow) = step.multipliedReportingOverflow(by: index)
    if overflow { return (step > 0) == (index > 0) ? .distantFuture : .distantPast }
    return start.advanced(by: Duration(attoseconds: offset))
  }
}

extension Duration {
  private static var attosecondsPerSecond: Int128 { 1_000_000_000_000_000_000 }

  /// The duration in whole attoseconds (every `Duration` is exactly representable).
  var attoseconds: Int128 {
    let (seconds, attoseconds) = components
    return Int128(seconds) * Self.attosecondsPerSecond + Int128(attoseconds)
  }

  /// A duration of `attoseconds`, saturating at ±`Int64.max` seconds.
  init(attoseconds: Int128) {
    let (seconds, remainder) = attoseconds.quotientAndRemainder(dividingBy: Self.attosecondsPerSecond)
    guard let whole = Int64(exactly: seconds) else {
      self = .seconds(seconds > 0 ? Int64.max : Int64.min)
      return
    }
    self.init(secondsComponent: whole, attosecondsComponent: Int64(remainder))
  }
}
