import AsyncSchedulers

/// The plain `Task.sleep`s parked as timers on a ``TestScheduler``: the sleeping task of each (so a
/// sleep whose task was cancelled, which the runtime already woke and whose timer is inert, is not
/// pending work) and the names of named tasks' sleeps, for failure messages ("plain sleep of task
/// 'poller'"), and the sleeps on the scheduler's own clock that its stall watch waits for (see
/// ``TestSchedulerStateMachine/watchSleep(_:)``). Part of the scheduler's state machine: pure, used
/// under its lock.
package struct SleepRegistry {
  /// The sleeping tasks, by their timer's key.
  private var sleepers: [SequentialKey: SleepingTask] = [:]
  /// The named tasks' pending sleeps, by the timer's identity; removed when the timer leaves the heap.
  /// (Unnamed tasks' sleeps are not kept: they cost nothing here.)
  private var labels: [ObjectIdentifier: String] = [:]
  /// The pending sleeps of tasks on the scheduler's clock (``TestScheduler/sleep(until:tolerance:)``)
  /// while nothing has driven it: a task waits on each, so the stall watch counts them as stalled work.
  private var watched: Set<ObjectIdentifier> = []

  /// Remembers the task sleeping on the timer with `key`.
  mutating func remember(_ task: SleepingTask, key: UInt64) { sleepers[SequentialKey(key)] = task }

  /// Names the sleep `timer` stands for.
  mutating func label(_ timer: ScheduledTimer, _ label: String) { labels[ObjectIdentifier(timer)] = label }

  /// The name of the sleep `timer` stands for, if its task is named.
  func label(of timer: ScheduledTimer) -> String? { labels.isEmpty ? nil : labels[ObjectIdentifier(timer)] }

  /// Forgets the sleeper of a timer that fired; the caller releases it after the lock.
  mutating func forget(_ key: UInt64) -> SleepingTask? { sleepers.removeValue(forKey: SequentialKey(key)) }

  /// Watches the sleep `timer` wakes: a task waits on it.
  mutating func watch(_ timer: ScheduledTimer) { watched.insert(ObjectIdentifier(timer)) }

  /// Whether a watched sleep is pending.
  var hasWatchedSleep: Bool { !watched.isEmpty }

  /// `timer` left the heap (fired or removed): its name goes, and it is no longer watched.
  mutating func timerLeft(_ timer: ScheduledTimer) {
    if !labels.isEmpty { labels[ObjectIdentifier(timer)] = nil }
    if !watched.isEmpty { watched.remove(ObjectIdentifier(timer)) }
  }

  /// Nothing is watched any more (the test drove the scheduler: what it leaves is its choice).
  mutating func stopWatching() { if !watched.isEmpty { watched.removeAll() } }

  /// Sleeps whose task was cancelled: their timers are inert (they only free the runtime's job).
  package var abandonedCount: Int { sleepers.isEmpty ? 0 : sleepers.values.count { $0.isCancelled } }
}
