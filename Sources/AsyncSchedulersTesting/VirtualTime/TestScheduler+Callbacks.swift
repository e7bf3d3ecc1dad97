import AsyncSchedulers

/// The callback face of a ``TestScheduler``: work and timers handed over as closures (RACScheduler's and
/// RxSwift's shape), queued on the virtual timeline.
extension TestScheduler {

  /// Queues `action`; it runs at the current virtual time on the next driving call, before any timer
  /// (RACTestScheduler's `schedule:` order), first in first out.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction {
    let scheduled = ScheduledAction(action)
    enqueue(work: .action(scheduled), escaping: "a callback (schedule)")
    return scheduled
  }

  /// Queues `action` like ``schedule(_:)``, without a handle.
  public func execute(_ action: @escaping @Sendable () -> Void) {
    enqueue(work: .closure(action), escaping: "a callback (execute)")
  }

  /// Queues a bridge job like ``schedule(_:)``.
  @usableFromInline package func submit(runnable job: consuming any RunnableJob) {
    enqueue(work: .runnable(job), escaping: "a bridged block (RACScheduler)")
  }

  /// Adds a timer at `deadline`; `leeway` is ignored (virtual timers are exact).
  @discardableResult
  public func schedule(
    at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    addTimer(ScheduledTimer(owner: timerOwner, action), at: deadline, describing: "a timer due at \(deadline)")
  }

  /// Suspends the calling task until `deadline` on the virtual clock: its wake-up is a timer, fired by a
  /// driving call (or by auto-advance in a capturing scope) when the clock reaches `deadline`;
  /// `tolerance` is ignored (virtual timers are exact).
  ///
  /// A deadline that is not in the future returns at once. Cancelling the task throws
  /// `CancellationError` promptly and removes the timer. Outside a capturing scope, a sleep on a
  /// scheduler the test has never driven is watched: if nothing drives the scheduler within
  /// ``stallTimeout`` of real time, the test fails ("nothing drives it") and the scheduler runs its
  /// pending work and timers in order, so the sleeping task, and the test, go on instead of hanging.
  public func sleep(until deadline: SchedulerInstant, tolerance: Duration?) async throws {
    try await sleep(until: deadline, tolerance: tolerance) { deadline, _, wake in
      addTimer(
        ScheduledTimer(owner: timerOwner, wake), at: deadline, describing: "a sleep due at \(deadline)",
        isSleep: true)
    }
  }

  /// Adds a repeating timer at `start + interval × k`; `leeway` is ignored.
  /// - Precondition: `interval > .zero`, `leeway >= .zero`.
  @discardableResult
  public func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration = .zero,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    preconditionValidRepeating(interval: interval, leeway: leeway)
    return addTimer(
      RepeatingTimer(owner: timerOwner, start: start, interval: interval, action), at: start,
      describing: "a repeating timer every \(interval) starting at \(start)")
  }

  /// Adds the wake-up timer of a plain `Task.sleep` at the virtual `deadline` (at once when it has
  /// passed), remembering its sleeping task under `key`.
  func addSleepTimer(_ timer: ScheduledTimer, at deadline: SchedulerInstant, sleeper: SleepingTask?, key: UInt64) {
    let arrival = Self.arrival(for: self)
    let label = Self.currentTaskName().map { "plain sleep of task '\($0)'" }
    var watch = false
    let admission = handOver(describing: "a plain sleep due at \(deadline)") { state, escape in
      if let sleeper { state.rememberSleeper(sleeper, key: key) }
      if let label { state.labelSleep(timer, label) }
      let admission = state.addTimer(timer, at: deadline, arrival, escape: escape)
      if case .queued = admission { watch = state.armStallWatchForTimer() }
      return admission
    }
    if admission?.wake == true { wakeup.signal() }
    if watch { startStallWatch() }
  }

  /// The calling task's name (SE-0469, `Task(name:)`), which failure messages show for its pending
  /// sleeps; `nil` for an unnamed task (most: their sleeps cost no label).
  private static func currentTaskName() -> String? {
    if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) { return Task.name }
    return nil
  }

  /// Adds `timer`; `what` names it in an escape report. The timer of a task's sleep (`isSleep`) is
  /// watched for stalls (see ``sleep(until:tolerance:)``).
  private func addTimer(
    _ timer: ScheduledTimer, at deadline: SchedulerInstant, describing what: @autoclosure () -> String,
    isSleep: Bool = false
  )
    -> ScheduledAction
  {
    let arrival = acceptsCallbacksFromAnyThread ? .onScheduler : Self.arrival(for: self)
    var watch = false
    let admission = handOver(describing: what()) { state, escape in
      let admission = state.addTimer(timer, at: deadline, arrival, escape: escape)
      if case .queued = admission {
        watch = isSleep ? state.watchSleep(timer) : state.armStallWatchForTimer()
      }
      return admission
    }
    if admission?.wake == true { wakeup.signal() }
    if watch { startStallWatch() }
    return timer
  }

  /// Removes a disposed timer at once (through ``TestSchedulerTimerOwner``).
  func cancelTimer(_ action: ScheduledTimer) {
    state.withCriticalRegion { $0.removeTimer(action) }
  }
}
