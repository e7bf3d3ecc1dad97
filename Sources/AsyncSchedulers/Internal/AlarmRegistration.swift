/// One scheduler engine's registration with the process-wide ``AlarmClock``: armed with a firing window,
/// it sits in the clock's heap until the window opens, then the clock's thread calls ``fire``.
///
/// A registration is not a job: it has no handle semantics, is never disposed by users, and its body
/// runs again at every arming. The engine that owns it cancels it when the engine goes away.
final class AlarmRegistration: @unchecked Sendable {
  // Why @unchecked Sendable: `heapIndex` and `armedGeneration` are read and written only under the
  // alarm clock's lock (which is also why their dynamic exclusivity checks are off); the rest are `let`s.

  /// Position in the alarm clock's heap, or -1 while not armed (the clock's lock).
  @exclusivity(unchecked) var heapIndex = -1
  /// The generation of the latest arming the clock performed (the clock's lock): an engine decides
  /// its armings in order under its own lock but performs them after releasing it, so an older one
  /// arriving late is ignored instead of moving the alarm.
  @exclusivity(unchecked) var armedGeneration: UInt64 = 0
  /// What the alarm does when its window opens: move the engine's due timers to its ready queue and
  /// start a worker. Runs on the alarm thread and takes the engine's lock. Its argument says whether the
  /// clock offers its thread to run the worker (only ever `true` when ``mayRunInline``): the engine may
  /// then run its due work, user code, on the clock's thread instead of submitting a worker.
  let fire: @Sendable (_ mayRunInline: Bool) -> Void
  /// Whether the engine accepts to run its work on the clock's thread (a default-priority, efficient
  /// serial scheduler on the shared global queue).
  let mayRunInline: Bool

  /// A registration that calls `fire` each time its window opens.
  init(mayRunInline: Bool = false, _ fire: @escaping @Sendable (_ mayRunInline: Bool) -> Void) {
    self.mayRunInline = mayRunInline
    self.fire = fire
  }
}

/// An armed registration in the alarm clock's heap.
struct AlarmEntry: DeadlineHeapEntry {
  /// The start of the registration's firing window: it never fires before.
  var deadline: SchedulerInstant
  /// The end of its window.
  var latest: SchedulerInstant
  /// Tie-breaker among equal deadlines: the order of arming.
  var sequence: UInt64
  /// The registration.
  let registration: AlarmRegistration

  @inline(__always)
  func didMove(to index: Int) { registration.heapIndex = index }
}

/// One arming decided by an engine under its lock, performed on the alarm clock after releasing it.
struct AlarmArming {
  /// The engine's registration.
  let registration: AlarmRegistration
  /// The start of the firing window.
  let earliest: SchedulerInstant
  /// The end of the firing window.
  let latest: SchedulerInstant
  /// The order in which the engine decided it (a later decision wins).
  let generation: UInt64
}
