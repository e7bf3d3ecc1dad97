/// The state of the process-wide ``AlarmClock``: the armed registrations, and which of the clock's
/// threads *watches* them (holds the duty to sleep until the next window and fire it). Pure: every event
/// takes what it needs and returns what the storage must do once it has released the lock.
///
/// It writes into the registrations it holds, and only there: each one's `heapIndex` (kept by its heap,
/// so re-arming or removing a registration is a sift from its slot, not a search) and
/// `armedGeneration` (so an arming older than the latest one is recognized without a map). Both fields
/// are touched only under the clock's lock, by this machine; nothing else reads them.
///
/// Usually one thread exists and it always watches. To save a thread wake-up per tick, the watcher may
/// run one engine's due work itself (``Step/fireInline``), when that engine's alarm is the only one
/// armed: it gives up the duty first, so user code never runs while a deadline it could hold up is
/// unwatched. An arming of any other registration while nobody watches hands the duty to a parked
/// thread, or to a new one (``ArmAction``); the inline runner, back, watches again, or parks if the
/// duty was handed on meanwhile. At most one thread runs work inline, so the clock has at most two
/// threads.
struct AlarmClockStateMachine {
  /// What the watching thread is doing.
  enum Watcher: Equatable {
    /// Nobody watches: the only thread is running an engine's work inline (or none has started).
    case none
    /// Awake: it will look at the heap before it sleeps again.
    case looking
    /// Sleeping with a deadline: it wakes by this instant at the latest.
    case sleeping(until: SchedulerInstant)
    /// Sleeping with no deadline.
    case idle
  }

  /// What the storage does after an arming.
  enum ArmAction: Equatable {
    /// Nothing: the watcher wakes in time, is awake, or the arming changed nothing.
    case none
    /// Signal the sleeping watcher (it must wake sooner than it would).
    case wakeWatcher
    /// Signal a parked thread: it now holds the watch duty.
    case wakeParked
    /// Start a thread: it holds the watch duty from its start.
    case startThread
  }

  /// What the thread that looked at the heap does next.
  enum Step: Equatable {
    /// Fire the registrations put in `due`, then look again (it keeps the duty).
    case fire
    /// Fire the one registration put in `due`, offering to run its engine's work on this thread: the
    /// thread gave up the duty; it looks again with `returningFromInline: true`.
    case fireInline
    /// Sleep until `until` at the earliest, letting the kernel add up to `slack`.
    case timedWait(until: SchedulerInstant, slack: Duration)
    /// Sleep until signalled.
    case idle
    /// Another thread took the duty while this one ran work inline: park until handed the duty.
    case park
  }

  private(set) var heap = DeadlineHeap<AlarmEntry>()
  private(set) var watcher = Watcher.none
  /// The registration whose engine's work a thread runs inline, if any.
  private(set) var inline: AlarmRegistration?
  /// Threads parked until handed the duty.
  private(set) var parked = 0
  /// Threads started.
  private(set) var threads = 0
  private var nextSequence: UInt64 = 0

  /// The smallest timer slack a sleep asks for: Linux's default for every thread (50 µs), so a timer
  /// with no leeway costs what any other thread's timed wait costs (a precise 1 ns slack measured about
  /// 15% more CPU per wake-up for a 60 Hz timer here). Work run inline sees this slack too.
  static let minimumSlack = Duration.microseconds(50)

  init() {}

  /// Arms `arming`'s registration for its window (inserting it, or moving it if already armed), unless
  /// a later arming of it was already performed or it was cancelled, and says who must wake.
  mutating func arm(_ arming: AlarmArming) -> ArmAction {
    let alarm = arming.registration
    // Armings are decided in order under an engine's lock and performed after it: a stale one that lost
    // the race to a newer one must not move the alarm back.
    guard arming.generation > alarm.armedGeneration else { return .none }
    alarm.armedGeneration = arming.generation
    remove(alarm)
    let latest = Swift.max(arming.earliest, arming.latest)
    heap.insert(AlarmEntry(deadline: arming.earliest, latest: latest, sequence: nextSequence, registration: alarm))
    nextSequence &+= 1
    switch watcher {
    case .looking:
      return .none
    case .idle:
      watcher = .looking
      return .wakeWatcher
    case .sleeping(let until):
      guard latest < until else { return .none }
      watcher = .looking
      return .wakeWatcher
    case .none:
      // The inline runner looks at its own engine's alarm when it is back (its engine's worker fires that
      // engine's due timers meanwhile); any other alarm needs a watcher now.
      if alarm === inline { return .none }
      watcher = .looking
      if parked > 0 {
        parked -= 1
        return .wakeParked
      }
      threads += 1
      return .startThread
    }
  }

  /// Removes `alarm` for good (its engine is going away): an arming still on its way is ignored.
  mutating func cancel(_ alarm: AlarmRegistration) {
    alarm.armedGeneration = .max
    remove(alarm)
  }

  private mutating func remove(_ alarm: AlarmRegistration) {
    let index = alarm.heapIndex
    guard index >= 0, index < heap.count, heap[index].registration === alarm else { return }
    _ = heap.remove(at: index)
  }

  /// A thread looks at the heap at `now`: the watcher after a wake-up (or at its start, or handed the
  /// duty), or a thread back from running work inline (`returningFromInline`). Puts the registrations
  /// due at `now` in `due` (which must be empty) and says what the thread does next.
  mutating func look(now: SchedulerInstant, returningFromInline: Bool, due: inout [AlarmRegistration]) -> Step {
    if returningFromInline {
      inline = nil
      if watcher != .none {
        parked += 1
        return .park
      }
    }
    watcher = .looking
    while let deadline = heap.firstDeadline, deadline <= now, let entry = heap.popFirst() {
      due.append(entry.registration)
    }
    if due.count == 1 && heap.isEmpty && inline == nil && due[0].mayRunInline {
      inline = due[0]
      watcher = .none
      return .fireInline
    }
    if !due.isEmpty { return .fire }
    guard let (earliest, end) = heap.firingWindow else {
      watcher = .idle
      return .idle
    }
    // Sleep from the window's start, letting the kernel wake the thread anywhere up to its end (with other
    // timers of the system), and never later than the OS's default slack after the start.
    let slack = Swift.min(Swift.max(earliest.duration(to: end), Self.minimumSlack), .seconds(1))
    watcher = .sleeping(until: earliest.advanced(by: slack))
    return .timedWait(until: earliest, slack: slack)
  }
}
