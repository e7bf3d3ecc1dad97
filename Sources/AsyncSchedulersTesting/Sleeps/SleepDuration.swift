/// Recovers the duration a task meant to sleep from a deadline on a real clock.
///
/// `Task.sleep(for:)` and `Clock.sleep(for:)` turn the duration into a deadline (`clock.now + duration`)
/// before the executor sees it, so a ``TestScheduler`` receives an instant on a real clock. The task
/// read `clock.now` somewhere between the start of the job it is running and the moment the sleep
/// reached the scheduler, so the duration it meant lies in a window: from the time left at the hand-over
/// (the shortest) to the time left measured from the job's start (the longest). The window is usually
/// a few microseconds wide. The recovered duration is the *roundest* duration in it: the one on the
/// coarsest grid (hours, minutes, seconds, 100 ms, 10 ms, … 1 ns) that has a point in the window, the
/// earliest such point. `300 ms` stays `300 ms`; `1.5 s` stays `1.5 s`; a duration with nanosecond
/// digits is exact as long as the window is narrower than its last digit's grid.
///
/// Pure: it reads no clock.
package enum SleepDuration {
  /// The grids tried, coarsest first, in nanoseconds.
  static let grids: [Int64] = [
    3_600_000_000_000, 60_000_000_000, 1_000_000_000, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000,
    1_000, 100, 10, 1,
  ]

  /// A recovered duration and how round it is: the index in ``grids`` of the coarsest grid it lies on
  /// (lower is rounder).
  package struct Candidate: Equatable {
    package var duration: Duration
    package var grid: Int

    /// How many significant digits the duration has on its grid (`950 ms`: 2; `999.792 ms`: 6). A
    /// duration a person wrote has few; one with more was not found in the windows (the deadline was
    /// computed elsewhere).
    package var significantDigits: Int {
      let units = SleepDuration.nanoseconds(duration) / SleepDuration.grids[grid]
      return units == 0 ? 1 : String(units).count
    }
  }

  /// The roundest duration in `shortest...longest` (negative bounds count as zero; bounds in the wrong
  /// order are swapped).
  package static func roundest(shortest: Duration, longest: Duration) -> Candidate {
    var low = nanoseconds(shortest)
    var high = nanoseconds(longest)
    if low > high { swap(&low, &high) }
    low = max(low, 0)
    guard high > 0 else { return Candidate(duration: .zero, grid: 0) }
    for (index, grid) in grids.enumerated() {
      let (quotient, remainder) = low.quotientAndRemainder(dividingBy: grid)
      let (candidate, overflow) = (remainder == 0 ? quotient : quotient + 1).multipliedReportingOverflow(by: grid)
      if !overflow && candidate <= high { return Candidate(duration: .nanoseconds(candidate), grid: index) }
    }
    return Candidate(duration: .nanoseconds(low), grid: grids.count - 1)
  }

  /// Whole nanoseconds, saturating at `Int64`'s bounds.
  static func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    if overflow { return seconds < 0 ? .min : .max }
    let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
    if overflow2 { return seconds < 0 ? .min : .max }
    return sum
  }
}
