import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process-wide alarm thread behind every real-time scheduler's timers.
///
/// Each scheduler keeps its timers in its own heap and registers only one "alarm" here (an
/// ``AlarmRegistration`` whose body moves the scheduler's due timers to its ready queue and starts a
/// worker), with its firing window (see ``DeadlineHeap/firingWindow``). One thread sleeps in the kernel
/// from the start of the alarms' own firing window, with a timer slack that lets the kernel wake it
/// anywhere up to that window's end (and so serve it with other timers of the system), then fires every
/// alarm whose window has opened: alarms of different schedulers whose windows overlap share one
/// wake-up, and none fires before its window opens. A process has one timer
/// thread however many schedulers it has. The thread starts on first use and never runs user code:
/// alarm bodies only take a scheduler's lock and submit a worker.
///
/// The state is a `Mutex`; the thread sleeps on a semaphore (a futex wait in the kernel). A glibc
/// condition variable, used before, re-locked its mutex as contended after every timed wait, which
/// cost one extra system call per wake-up.
final class AlarmClock: Sendable {
  static let shared = AlarmClock()

  private struct State {
    var heap = DeadlineHeap<AlarmEntry>()
    var started = false
    /// The latest instant the thread may sleep until, while it sleeps with a deadline.
    var waitingUntil: SchedulerInstant?
    /// Whether the thread sleeps with no deadline.
    var waitingIdle = false
    var nextSequence: UInt64 = 0
  }

  private let state = Mutex(State())
  /// Where the thread sleeps; signalled when an alarm must go off before the thread would wake.
  private let wakeUp = DispatchSemaphore(value: 0)

  private init() {}

  /// Makes the registration fire between the arming's `earliest` and `latest` (inserting it, or moving
  /// it if already armed), unless the clock already performed a later arming of it.
  func arm(_ arming: AlarmArming) {
    let alarm = arming.registration
    let earliest = arming.earliest
    let latest = arming.latest
    let (wake, start) = state.withCriticalRegion { state -> (Bool, Bool) in
      // Armings are decided in order under the engine's lock and performed after it: a stale one that
      // lost the race to a newer one must not move the alarm back.
      guard arming.generation > alarm.armedGeneration else { return (false, false) }
      alarm.armedGeneration = arming.generation
      Self.remove(alarm, from: &state.heap)
      state.heap.insert(
        AlarmEntry(
          deadline: earliest, latest: Swift.max(earliest, latest), sequence: state.nextSequence, registration: alarm))
      state.nextSequence &+= 1
      let wake = state.waitingIdle || (state.waitingUntil.map { latest < $0 } ?? false)
      defer { state.started = true }
      return (wake, !state.started)
    }
    if start { startThread() }
    if wake { wakeUp.signal() }
  }

  /// Removes `alarm` if it is armed, for good (its engine is going away): an arming still on its way
  /// is ignored.
  func cancel(_ alarm: AlarmRegistration) {
    state.withCriticalRegion { state in
      alarm.armedGeneration = .max
      Self.remove(alarm, from: &state.heap)
    }
  }

  private static func remove(_ alarm: AlarmRegistration, from heap: inout DeadlineHeap<AlarmEntry>) {
    let index = alarm.heapIndex
    guard index >= 0, index < heap.count, heap[index].registration === alarm else { return }
    _ = heap.remove(at: index)
  }

  private func startThread() {
    #if canImport(Darwin)
      var thread: pthread_t? = nil
    #else
      var thread = pthread_t()
    #endif
    let result = pthread_create(
      &thread, nil,
      { _ in
        AlarmClock.shared.run()
        return nil
      }, nil)
    // fatalError, not precondition: the message must survive -O (this is a resource failure users can hit).
    if result != 0 { fatalError("AsyncSchedulers could not start its timer thread (pthread_create: \(result))") }
  }

  /// What the thread does next.
  private enum Step {
    /// Run the alarms that were due, then look again.
    case fire
    /// Sleep until `until` at the earliest, with this much slack.
    case sleep(until: SchedulerInstant, slack: Duration)
    /// Sleep until signalled.
    case idle
  }

  private func run() {
    var due: [AlarmRegistration] = []
    // The slack set on this thread last.
    var currentSlack = Duration.zero
    // The deadline of the last timed wait: how late the thread woke for it is a hand-off sample.
    var waitedFor: SchedulerInstant?
    while true {
      let now = SchedulerInstant.uptimeNow
      if let waited = waitedFor, waited <= now {
        HandOffLatency.recordAlarmWake(Int64(clamping: waited.duration(to: now).saturatingNanoseconds))
      }
      waitedFor = nil
      let step = state.withCriticalRegion { state -> Step in
        while let deadline = state.heap.firstDeadline, deadline <= now, let entry = state.heap.popFirst() {
          due.append(entry.registration)
        }
        if !due.isEmpty { return .fire }
        guard let (earliest, end) = state.heap.firingWindow else {
          state.waitingIdle = true
          return .idle
        }
        // Sleep from the window's start, letting the kernel wake the thread anywhere up to its end (with
        // other timers of the system), and never later than the OS's default slack after the start.
        let slack = Swift.min(Swift.max(earliest.duration(to: end), Self.minimumSlack), .seconds(1))
        state.waitingUntil = earliest.advanced(by: slack)
        return .sleep(until: earliest, slack: slack)
      }
      switch step {
      case .fire:
        for alarm in due { alarm.fire() }
        due.removeAll(keepingCapacity: true)
        continue
      case .idle:
        wakeUp.wait()
      case .sleep(let until, let slack):
        if slack != currentSlack {
          currentSlack = slack
          Self.setTimerSlack(slack)
        }
        // A signal left from an earlier arm only makes the thread look again.
        _ = wakeUp.wait(timeout: until.dispatchTime)
        waitedFor = until
      }
      state.withCriticalRegion { state in
        state.waitingIdle = false
        state.waitingUntil = nil
      }
    }
  }

  /// The smallest timer slack the thread asks for: Linux's default for every thread (50 µs), so a timer
  /// with no leeway costs what any other thread's timed wait costs (a precise 1 ns slack measured about
  /// 15% more CPU per wake-up for a 60 Hz timer here).
  static let minimumSlack = Duration.microseconds(50)

  /// Sets how much later than asked Linux may wake this thread from a timed wait (its timer slack), so
  /// the kernel can serve the wake-up with other timers of the system. `prctl` is variadic, so Swift
  /// cannot import it; it is reached by name. Failure only costs coalescing. Elsewhere, a no-op (the
  /// window's start is the wait).
  private static func setTimerSlack(_ slack: Duration) {
    #if os(Linux)
      typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
      guard let symbol = UnsafeRawPointer(bitPattern: prctlAddress) else { return }
      let prSetTimerSlack: Int32 = 29
      _ = unsafeBitCast(symbol, to: Prctl.self)(prSetTimerSlack, UInt(slack.saturatingNanoseconds), 0, 0, 0)
    #endif
  }

  #if os(Linux)
    /// The address of `prctl`, looked up once (0 if not found).
    private static let prctlAddress = UInt(bitPattern: dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl"))
  #endif
}
