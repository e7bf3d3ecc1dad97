import AsyncSchedulers

/// Deadline recovery: where clock reads in a scope's code are not virtual (Darwin, and code outside any
/// capturing scope), a plain `Task.sleep(until:)` hands the scheduler a *real*-clock deadline; this puts
/// it back on the virtual timeline from the windows in which the sleeping task can have read the clock
/// (see ``TaskJobStarts`` and ``SleepDuration``). Where clock reads are virtual (a capturing scope on
/// Linux), the deadline is exact by construction and none of this runs.
extension TestScheduler {
  /// The virtual instant a sleep on `clock` until `instant` means, or `nil` for a clock whose
  /// durations are not `Swift.Duration`.
  ///
  /// A deadline on this scheduler is its own. A real-clock deadline was computed as `clock.now + d` in
  /// the sleeping task's current job or one of the few before (see ``TaskJobStarts``): each gives a window of
  /// durations `d` and the virtual instant the job started at; the deadline is that instant plus the
  /// duration of the window where it is the least likely coincidence (the window's width over the
  /// duration's grid step, below ½, weighted by roundness, see ``SleepDuration``), so work that ran between the jobs, or a
  /// thread preempted mid-job, never shifts it. When even that explanation is a likely coincidence and the duration has more than three
  /// significant digits (`999.87 ms`), the deadline was computed elsewhere (another task, many jobs
  /// earlier): it cannot be exact, and the inexact instant is reported, never used in silence.
  func recoveredDeadline<C: Clock>(until instant: C.Instant, clock: C) -> SchedulerInstant? {
    if let own = clock as? TestScheduler, own === self, let deadline = instant as? SchedulerInstant {
      return deadline
    }
    guard let remaining = clock.now.duration(to: instant) as? Duration else { return nil }
    // In a capturing scope's code, the continuous and suspending clocks read virtual time (see
    // `VirtualClockReads`): the deadline was computed on the virtual clock, so it is exact by
    // construction, whenever it was computed.
    if clock is ContinuousClock || clock is SuspendingClock, VirtualClockReads.areVirtual(for: self) {
      return now.advanced(by: remaining)
    }
    let handOver = TaskJobStarts.now()
    let virtualNow = now
    let task = TaskIdentity.currentTaskAddress()
    guard let task, let (current, earlier) = jobStarts.jobs(ofTaskAt: task) else {
      return virtualNow.advanced(by: SleepDuration.roundest(shortest: remaining, longest: remaining).duration)
    }
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
    let deadline = base.advanced(by: best.duration)
    // The task suspends now: a later sleep's reading of the clock cannot lie in the rest of this job.
    jobStarts.noteSuspension(ofJobAt: task, at: handOver)
    // Reported when even the best explanation is a likely coincidence and the duration is not one a
    // person would write. Known limit: a job preempted while it read the clock for longer than the
    // gap to a rounder duration (10 ms and more, seen only with CPU burners beside a parallel suite)
    // leaves a rounder wrong value as the only credible one, and it is used.
    let exact = bestChance < 0.25 || best.significantDigits <= 3
    if !exact {
      recordEscape(
        "a plain sleep until a real-clock deadline (\(remaining) from now), woken at \(deadline)",
        origin: "a deadline computed outside the sleeping task's last few jobs (in another task, or before an "
          + "earlier await), which cannot be put on virtual time exactly: ContinuousClock.now reads real "
          + "time. Sleep for a duration, or compute the deadline just before sleeping")
    }
    return deadline
  }
}
