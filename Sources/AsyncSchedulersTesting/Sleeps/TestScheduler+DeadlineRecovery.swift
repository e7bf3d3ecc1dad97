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
    let recovered = DeadlineRecovery.recover(
      remaining: remaining, handOver: handOver, current: current, earlier: earlier)
    let deadline = recovered.deadline
    // The task suspends now: a later sleep's reading of the clock cannot lie in the rest of this job.
    jobStarts.noteSuspension(ofJobAt: task, at: handOver)
    if !recovered.exact {
      recordEscape(
        "a plain sleep until a real-clock deadline (\(remaining) from now), woken at \(deadline)",
        origin: "a deadline computed outside the sleeping task's last few jobs (in another task, or before an "
          + "earlier await), which cannot be put on virtual time exactly: ContinuousClock.now reads real "
          + "time. Sleep for a duration, or compute the deadline just before sleeping")
    }
    return deadline
  }
}
