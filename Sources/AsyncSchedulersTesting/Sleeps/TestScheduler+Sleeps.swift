import AsyncSchedulers
import Synchronization

#if compiler(>=6.3)
  @_spi(ExperimentalScheduling) import _Concurrency
#endif

/// Plain `Task.sleep` on virtual time: the runtime hands a sleeping task's wake-up job to the
/// *schedulable* executor the task runs on (Swift 6.3's `SchedulingExecutor`, an SPI), and a
/// ``TestScheduler`` is one, so a task running on it (preferring it, isolated to an actor bound to it,
/// captured by ``TestScheduler/capturingAllTasks(isolation:autoAdvance:stallTimeout:expectingNoPendingWork:fileID:filePath:line:column:_:)``,
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
