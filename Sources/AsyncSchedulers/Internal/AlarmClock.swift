import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process-wide alarm thread behind every real-time scheduler's timers: the storage of an
/// ``AlarmClockStateMachine``.
///
/// Each scheduler keeps its timers in its own heap and registers only one "alarm" here (an
/// ``AlarmRegistration`` whose body moves the scheduler's due timers to its ready queue and starts a
/// worker), with its firing window (see ``Heap/firingWindow``). One thread sleeps in the kernel
/// from the start of the alarms' own firing window, with a timer slack that lets the kernel wake it
/// anywhere up to that window's end (and so serve it with other timers of the system), then fires every
/// alarm whose window has opened: alarms of different schedulers whose windows overlap share one
/// wake-up, and none fires before its window opens. The thread starts on first use.
///
/// **One wake-up per tick.** When the alarm that goes off is the only one armed and its scheduler
/// allows it (a default-priority, efficient ``SerialScheduler`` on the shared global queue), the thread
/// runs that scheduler's due work itself instead of waking a worker thread for it: a lone timer (an
/// app's 60 Hz refresh, a poll) then costs one thread wake-up per tick instead of two. It gives up the
/// watch duty before running user code; if another scheduler arms an alarm meanwhile, a parked thread
/// (or, the first time, a new one) takes the duty, so user code that runs long or blocks never holds up
/// another scheduler's timer. The clock has at most two threads.
///
/// The state is a `Mutex`; the watcher sleeps on a ``WakeUpWord`` (one futex call per sleep), a parked
/// thread on a semaphore. A glibc condition variable, used before, re-locked its mutex as contended after
/// every timed wait, which cost one extra system call per wake-up.
final class AlarmClock: Sendable {
  static let shared = AlarmClock()

  private let state = Mutex(AlarmClockStateMachine())
  /// Where the watcher sleeps; bumped when an alarm must go off before the watcher would wake.
  private let wakeUp = WakeUpWord()
  /// Where a thread without the duty parks; signalled when it is handed the duty.
  private let standby = DispatchSemaphore(value: 0)

  private init() {}

  /// Makes the registration fire between the arming's `earliest` and `latest` (inserting it, or moving
  /// it if already armed), unless the clock already performed a later arming of it.
  func arm(_ arming: AlarmArming) {
    let action = state.withCriticalRegion { state in
      let action = state.arm(arming)
      if action == .wakeWatcher { wakeUp.bump() }
      return action
    }
    switch action {
    case .none: break
    case .wakeWatcher: wakeUp.wake()
    case .wakeParked: standby.signal()
    case .startThread: startThread()
    }
  }

  /// Removes `alarm` if it is armed, for good (its engine is going away): an arming still on its way
  /// is ignored.
  func cancel(_ alarm: AlarmRegistration) {
    state.withCriticalRegion { $0.cancel(alarm) }
  }

  /// The name of the clock's threads, as debuggers, `top -H` and `perf` show them (15 characters:
  /// Linux's limit).
  static let threadName = "AsyncSchedTimer"

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
    #if !canImport(Darwin)
      pthread_detach(thread)
    #else
      if let thread { pthread_detach(thread) }
    #endif
  }

  private func run() {
    Self.nameThisThread()
    var due: [AlarmRegistration] = []
    // The slack set on this thread last (zero: not set yet).
    var currentSlack = Duration.zero
    // The deadline of the last timed wait: how late the thread woke for it is a hand-off sample.
    var waitedFor: SchedulerInstant?
    var returningFromInline = false
    while true {
      let now = SchedulerInstant.uptimeNow
      if let waited = waitedFor, waited <= now {
        HandOffLatency.recordAlarmWake(Int64(clamping: waited.duration(to: now).saturatingNanoseconds))
      }
      waitedFor = nil
      let (step, seen) = state.withCriticalRegion { state in
        (state.look(now: now, returningFromInline: returningFromInline, due: &due), wakeUp.snapshot())
      }
      returningFromInline = false
      switch step {
      case .fire:
        for alarm in due { alarm.fire(false) }
        due.removeAll(keepingCapacity: true)
      case .fireInline:
        // User code may run here: it sees the OS's default timer slack, not the clock's.
        if currentSlack != AlarmClockStateMachine.minimumSlack {
          currentSlack = AlarmClockStateMachine.minimumSlack
          Self.setTimerSlack(currentSlack)
        }
        for alarm in due { alarm.fire(true) }
        due.removeAll(keepingCapacity: true)
        returningFromInline = true
      case .park:
        standby.wait()
      case .idle:
        wakeUp.wait(seen: seen, timeout: nil)
      case .timedWait(let until, let slack):
        if slack != currentSlack {
          currentSlack = slack
          Self.setTimerSlack(slack)
        }
        // A wake-up left from an earlier arm only makes the thread look again.
        wakeUp.wait(seen: seen, timeout: SchedulerInstant.uptimeNow.duration(to: until))
        waitedFor = until
      }
    }
  }

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

  /// Names the calling thread ``threadName`` (Linux: `prctl(PR_SET_NAME)`, reached by name as above).
  private static func nameThisThread() {
    #if os(Linux)
      typealias Prctl = @convention(c) (Int32, UnsafePointer<CChar>, UInt, UInt, UInt) -> Int32
      guard let symbol = UnsafeRawPointer(bitPattern: prctlAddress) else { return }
      let prSetName: Int32 = 15
      _ = threadName.withCString { unsafeBitCast(symbol, to: Prctl.self)(prSetName, $0, 0, 0, 0) }
    #elseif canImport(Darwin)
      _ = pthread_setname_np(threadName)
    #endif
  }

  #if os(Linux)
    /// The address of `prctl`, looked up once (0 if not found).
    private static let prctlAddress = UInt(bitPattern: dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl"))
  #endif
}
