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

  /// Notes the real time at which `work` starts (one clock read) when it is a job, by its task.
  ///
  /// Callbacks and timers are not noted (no clock read): only a job's code can compute a deadline
  /// and hand a sleep over, so the latest job noted is the one handing it over.
  @inline(__always)
  func noteJobStart(_ work: Work) {
    switch work {
    case .job(let job), .taskJob(let job): jobStarts.noteStart(ofJobAt: unsafeBitCast(job, to: UInt.self))
    case .runnable(let runnable as MainActorJob):
      jobStarts.noteStart(ofJobAt: unsafeBitCast(runnable.job, to: UInt.self))
    default: break
    }
  }

  /// How much real time has passed since the calling task can have computed a deadline.
  var realTimeSinceDeadlineComputation: Duration {
    let task = withUnsafeCurrentTask { $0.map { unsafeBitCast($0, to: UInt.self) } }
    return jobStarts.elapsedSinceDeadlineComputation(byTaskAt: task)
  }

  /// Parks a sleeping task's wake-up `job` as a timer `duration` after the virtual `now` (one critical
  /// region: the sleeper is remembered and the timer added together).
  func scheduleSleep(_ job: UnownedJob, after duration: Duration) {
    let sleeper = SleepingTask.current()
    let key = Self.sleepKeys.add(1, ordering: .relaxed).newValue
    let timer = ScheduledTimer(owner: timerOwner) { [unowned(unsafe) self] in
      // The timer runs on this scheduler (it is alive). The sleeper is released after the lock.
      let sleeper = self.state.withCriticalRegion { $0.forgetSleeper(key) }
      // The wake-up job belongs to a small task of the runtime's that resumes the sleeper. Run on a
      // task executor, that task would first hop to the global executor (it prefers none) and resume
      // the sleeper from a thread of Dispatch's; run on the generic executor it resumes the sleeper
      // here, so the sleeper's next job reaches this scheduler from the scheduler itself.
      job.runSynchronously(on: GenericExecutor.unowned)
      withExtendedLifetime(sleeper) {}
    }
    addSleepTimer(timer, after: duration, sleeper: sleeper, key: key)
  }

  /// The duration a sleep on `clock` until `instant` meant, recovered from the real-time window in which
  /// the task computed its deadline (see ``SleepDuration``).
  func recoveredDuration<C: Clock>(until instant: C.Instant, clock: C) -> Duration? {
    if let own = clock as? TestScheduler, own === self, let deadline = instant as? SchedulerInstant {
      return now.duration(to: deadline)
    }
    guard let shortest = clock.now.duration(to: instant) as? Duration else { return nil }
    return SleepDuration.roundest(shortest: shortest, longest: shortest + realTimeSinceDeadlineComputation)
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
      scheduleSleep(job, after: delay)
    }

    /// Parks a sleeping task's wake-up job until the virtual instant that matches `instant`
    /// (`Task.sleep(for:)`, `Task.sleep(until:clock:)`, `ContinuousClock().sleep(for:)` and
    /// `SuspendingClock().sleep(for:)` come here). Called by the runtime; never blocks.
    ///
    /// The duration is recovered from the real-clock deadline: the roundest
    /// duration between the time left now and the time left since the current job started, so a
    /// `Task.sleep(for: .milliseconds(300))` wakes at exactly `now + 300 ms` of virtual time. A deadline
    /// computed in an *earlier* job (`let deadline = .now + …; await …; sleep(until: deadline)`) is
    /// short by the real time that passed in between: sleep for a duration instead.
    public func enqueue<C: Clock>(
      _ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C
    ) {
      let job = UnownedJob(job)
      guard let duration = recoveredDuration(until: instant, clock: clock) else {
        return sleepOnForeignClock(job, clock: clock)
      }
      scheduleSleep(job, after: duration)
    }

    private func sleepOnForeignClock<C: Clock>(_ job: UnownedJob, clock: C) {
      recordEscape(
        "a sleep on \(C.self), whose durations are not Swift.Duration",
        origin: "a task on the scheduler; it cannot be put on virtual time, so it woke at once")
      scheduleSleep(job, after: .zero)
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

/// The runtime's generic executor (the global concurrent executor's identity), as an
/// `UnownedSerialExecutor`: both words zero, as the runtime spells it (`SerialExecutorRef::generic()`).
/// Running a job "on" it tells the runtime the job needs no hop to reach nonisolated code.
enum GenericExecutor {
  static let unowned: UnownedSerialExecutor = {
    if MemoryLayout<UnownedSerialExecutor>.size != 2 * MemoryLayout<Int>.size {
      fatalError("UnownedSerialExecutor is expected to be two words (identity, implementation)")
    }
    return unsafeBitCast((0, 0) as (Int, Int), to: UnownedSerialExecutor.self)
  }()
}
