import AsyncSchedulers

/// The decision of deadline recovery (see `TestScheduler.recoveredDeadline(until:clock:)`): given the
/// time left until a real-clock deadline when a sleep reached the scheduler, and when the sleeping
/// task's last few jobs ran (real nanoseconds, with the virtual instant at each start), the virtual
/// deadline the task meant and whether it is exact. Pure: it reads no clock and no runtime state, so its
/// model test drives it with generated job histories.
package enum DeadlineRecovery {
  /// One job of the sleeping task (see ``TaskJobStarts``).
  package typealias Job = TaskJobStarts.Job

  /// The recovered deadline; `exact` is `false` when even the best explanation is a likely coincidence
  /// and the duration is not one a person would write (the caller reports it).
  package struct Recovered: Equatable {
    package var deadline: SchedulerInstant
    package var exact: Bool
  }

  /// The virtual deadline of a sleep handed over at `handOver` (real nanoseconds) with `remaining` left
  /// on the real clock, read in the task's `current` job or one of the `earlier` ones (latest first).
  ///
  /// Each job gives a window of durations `d` and the virtual instant the job started at; the deadline
  /// is that instant plus the duration of the window where it is the least likely coincidence (the
  /// window's width over the duration's grid step, below ½, weighted by roundness, see
  /// ``SleepDuration``), so work that ran between the jobs, or a thread preempted mid-job, never shifts
  /// it. Invariant (checked by the model test): the recovered duration lies in the window of one of the
  /// jobs (or of their whole span), and the deadline is that job's virtual start plus it.
  package static func recover(remaining: Duration, handOver: UInt64, current: Job, earlier: [Job]) -> Recovered {
    // The window of durations a job's reading of the clock gives, from its start to `end` (real
    // nanoseconds), with the virtual instant the job started at and the window's width.
    func window(_ job: TaskJobStarts.Job, until end: UInt64) -> (SleepDuration.Candidate, SchedulerInstant, UInt64) {
      let sinceEnd = Duration.nanoseconds(Int64(clamping: handOver &- min(end, handOver)))
      let sinceStart = Duration.nanoseconds(Int64(clamping: handOver &- min(job.start, handOver)))
      let candidate = SleepDuration.roundest(shortest: remaining + sinceEnd, longest: remaining + sinceStart)
      return (candidate, job.virtualStart, end &- min(job.start, end))
    }
    // Each window's roundest duration, and how likely a duration that round would land in a window
    // that wide by chance (width ÷ the grid's step). Only windows where it is no likely coincidence
    // (chance below ½: a preempted job's wide window always holds a round value) compete, on that
    // chance weighted by roundness; when no window qualifies, the roundest of all.
    func chance(_ candidate: SleepDuration.Candidate, width: UInt64) -> Double {
      Double(width) / Double(SleepDuration.grids[candidate.grid])
    }
    func better(_ a: (SleepDuration.Candidate, Double), than b: (SleepDuration.Candidate, Double)) -> Bool {
      let (aCredible, bCredible) = (a.1 < 0.5, b.1 < 0.5)
      if aCredible != bCredible { return aCredible }
      if aCredible {
        // Both credible: the less likely coincidence wins, a duration one grid finer counting as ten
        // times likelier to be one (people write round durations more often). So a 950 ms deadline
        // read in a 50 µs job beats 900 ms in a 10 ms job preempted after the 40 ms of work queued
        // ahead, and a true 300 ms in a 2 ms window beats 296 ms in any window wider than 0.2 µs.
        let (aScore, bScore) = (a.1 * pow10(a.0.grid), b.1 * pow10(b.0.grid))
        if aScore != bScore { return aScore < bScore }
      }
      if a.0.grid != b.0.grid { return a.0.grid < b.0.grid }
      return a.1 < b.1
    }
    func pow10(_ exponent: Int) -> Double {
      (0..<exponent).reduce(1.0) { product, _ in product * 10 }
    }
    var (best, base, width) = window(current, until: handOver)
    var bestChance = chance(best, width: width)
    for job in earlier {
      let (candidate, earlierBase, earlierWidth) = window(job, until: job.end)
      let candidateChance = chance(candidate, width: earlierWidth)
      if better((candidate, candidateChance), than: (best, bestChance)) {
        (best, base, width, bestChance) = (candidate, earlierBase, earlierWidth, candidateChance)
      }
    }
    if bestChance >= 0.25, let oldest = earlier.last {
      // No window explains the deadline well: try the whole span of the recorded jobs (a job whose
      // start or end was not seen, as when a thread was preempted mid-job), for a duration a person
      // would write. Only a strictly rounder one replaces a weak explanation a person could have
      // written: the span's first point on the same grid is no evidence (a 950 ms deadline read in a
      // preempted 4 ms job, 44 ms before the hand-over, is not 910 ms because the span starts at 906).
      let (hull, hullBase, _) = window(oldest, until: handOver)
      if hull.significantDigits <= 3 && (best.significantDigits > 3 || hull.grid < best.grid) {
        (best, base, bestChance) = (hull, hullBase, 0)
      }
    }
    // Reported when even the best explanation is a likely coincidence and the duration is not one a
    // person would write. Known limit: a job preempted while it read the clock for longer than the
    // gap to a rounder duration (10 ms and more, seen only with CPU burners beside a parallel suite)
    // leaves a rounder wrong value as the only credible one, and it is used.
    let exact = bestChance < 0.25 || best.significantDigits <= 3
    return Recovered(deadline: base.advanced(by: best.duration), exact: exact)
  }
}
