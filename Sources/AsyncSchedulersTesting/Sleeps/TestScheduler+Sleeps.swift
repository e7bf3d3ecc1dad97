import AsyncSchedulers
import Synchronization

#if compiler(>=6.3)
  @_spi(ExperimentalScheduling) import _Concurrency
#endif

/// Plain `Task.sleep` on virtual time: the runtime hands a sleeping task's wake-up job to the
/// *schedulable* executor the task runs on (Swift 6.3's `SchedulingExecutor`, an SPI), and a
/// ``TestScheduler`` is one, so a task running on it (preferring it, isolated to an actor bound to it,
/// captured by ``TestScheduler/capturingAllTasks(isolation:autoAdvance:stallTimeout:fileID:filePath:line:column:_:)``,
/// or main-actor code inside that scope) sleeps on the virtual clock. Where the SPI is missing (a
/// compiler before 6.3) the conformance is absent and such sleeps take real time, as before.
extension TestScheduler {
  /// Keys of sleep timers, unique in the process.
  static let sleepKeys = Atomic<UInt64>(0)

  /// The task whose job `work` is, by address (`nil` for callbacks and timers).
  @inline(__always)
  static func taskAddress(of work: Work) -> UInt? {
    switch work {
    case .job(let job), .taskJob(let job): TaskIdentity.address(of: job)
    case .runnable(let runnable as MainActorJob): TaskIdentity.address(of: runnable.job)
    default: nil
    }
  }

  /// Notes when `work` starts (two clock reads: real and virtual) when it is a task's job.
  ///
  /// Callbacks and timers are not noted: only a task's code can compute a deadline and hand a sleep
  /// over.
  @inline(__always)
  func noteJobStart(_ work: Work) -> UInt? {
    guard let task = Self.taskAddress(of: work) else { return nil }
    jobStarts.noteStart(ofJobAt: task, virtualNow: now)
    return task
  }

  /// Parks a sleeping task's wake-up `job` as a timer at the virtual `deadline` (at once when it is not
  /// in the future; one critical region: the sleeper is remembered and the timer added together).
  func scheduleSleep(_ job: UnownedJob, at deadline: SchedulerInstant) {
    if let task = TaskIdentity.currentTaskAddress() {
      jobStarts.noteSuspension(ofJobAt: task)
    }
    let sleeper = SleepingTask.current()
    let key = Self.sleepKeys.add(1, ordering: .relaxed).newValue
    let timer = ScheduledTimer(owner: timerOwner) { [unowned(unsafe) self] in
      // The timer runs on this scheduler (it is alive). The sleeper is released after the lock.
      let sleeper = self.state.withCriticalRegion { $0.forgetSleeper(key) }
      // The wake-up job belongs to a small task of the runtime's that resumes the sleeper. Run on a
      // task executor, that task would first hop to the global executor (it prefers none) and resume
      // the sleeper from a thread of Dispatch's; run on the generic executor it resumes the sleeper
      // here, so the sleeper's next job reaches this scheduler from the scheduler itself.
      job.runSynchronously(on: TaskIdentity.genericExecutor)
      withExtendedLifetime(sleeper) {}
    }
    addSleepTimer(timer, at: deadline, sleeper: sleeper, key: key)
  }

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

#if compiler(>=6.3)
  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  @_spi(ExperimentalScheduling) extension TestScheduler: SchedulingExecutor {
    /// Parks a sleeping task's wake-up job until `delay` of virtual time has passed
    /// (`Task.sleep(nanoseconds:)` comes here). Called by the runtime; never blocks.
    ///
    /// A delay on a clock whose duration is not `Swift.Duration` cannot be put on the virtual
    /// timeline: the job runs at the current virtual instant and the escape is reported.
    public func enqueue<C: Clock>(
      _ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C
    ) {
      let job = UnownedJob(job)
      guard let delay = delay as? Duration else { return sleepOnForeignClock(job, clock: clock) }
      scheduleSleep(job, at: now.advanced(by: max(delay, .zero)))
    }

    /// Parks a sleeping task's wake-up job until the virtual instant that matches `instant`
    /// (`Task.sleep(for:)`, `Task.sleep(until:clock:)`, `ContinuousClock().sleep(for:)` and
    /// `SuspendingClock().sleep(for:)` come here). Called by the runtime; never blocks.
    ///
    /// The virtual instant is recovered from the real-clock deadline and the windows in which the task
    /// can have computed it (its current and previous job), so `Task.sleep(for: .milliseconds(300))`
    /// and `Task.sleep(until: .now + .milliseconds(300), clock: .continuous)` wake at exactly 300 ms
    /// after the virtual instant the task read `now` at, whatever ran in between. A deadline computed
    /// in another task, or before an earlier await, cannot be exact: the sleep is reported.
    public func enqueue<C: Clock>(
      _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
    ) {
      let job = UnownedJob(job)
      guard let deadline = recoveredDeadline(until: instant, clock: clock) else {
        return sleepOnForeignClock(job, clock: clock)
      }
      scheduleSleep(job, at: deadline)
    }

    private func sleepOnForeignClock<C: Clock>(_ job: UnownedJob, clock: C) {
      recordEscape(
        "a sleep on \(C.self), whose durations are not Swift.Duration",
        origin: "a task on the scheduler; it cannot be put on virtual time, so it woke at once")
      scheduleSleep(job, at: now)
    }
  }

  @available(macOS 26.4, iOS 26.4, watchOS 26.4, tvOS 26.4, visionOS 26.4, *)
  extension TestSchedulerSerialExecutor: SchedulingExecutor {
    /// Sleeps of actors bound to the scheduler: on its virtual clock (see `TestScheduler`'s).
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, after delay: C.Duration, tolerance: C.Duration?, clock: C) {
      scheduler.enqueue(job, after: delay, tolerance: tolerance, clock: clock)
    }

    /// Sleeps of actors bound to the scheduler: on its virtual clock (see `TestScheduler`'s).
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
      scheduler.enqueue(job, at: instant, tolerance: tolerance, clock: clock)
    }
  }
#endif
