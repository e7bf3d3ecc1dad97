#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process-wide alarm thread behind every real-time scheduler's timers.
///
/// Each scheduler keeps its timers in its own heap and registers only one "alarm" here (a
/// ``ScheduledAction`` whose body moves the scheduler's due timers to its ready queue and starts a
/// worker), with a firing window: from its earliest deadline to the end of its timers' common leeway
/// window. One thread sleeps in the kernel (a monotonic condition variable) until the earliest window
/// end, then fires every alarm whose window has opened: alarms of different schedulers whose windows
/// overlap share one wake-up, and none fires before its window opens. A process has one timer thread
/// however many schedulers it has. The thread starts on first use and never runs user code: alarm
/// bodies only take a scheduler's lock and submit a worker.
final class AlarmClock: TimerOwner, @unchecked Sendable {
  // Why @unchecked Sendable: `mutex` and `condition` are pthread objects that live as long as the
  // process (this is a singleton that is never deallocated); `heap` and `started` are only touched
  // while `mutex` is held.

  static let shared = AlarmClock()

  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>
  private var heap = TimerHeap()
  private var started = false
  /// The instant the thread is waiting for, while it waits with a deadline (mutex).
  private var waitingUntil: SchedulerInstant?
  /// Whether the thread is waiting with no deadline (mutex).
  private var waitingIdle = false
  private var nextSequence: UInt64 = 0

  private init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    #if os(Linux) || os(Android)
      var attributes = pthread_condattr_t()
      pthread_condattr_init(&attributes)
      pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
      pthread_cond_init(condition, &attributes)
      pthread_condattr_destroy(&attributes)
    #else
      pthread_cond_init(condition, nil)
    #endif
  }

  /// Makes `alarm` fire between `earliest` and `latest` (inserting it, or moving it if already armed).
  func arm(_ alarm: ScheduledTimer, earliest: SchedulerInstant, latest: SchedulerInstant) {
    pthread_mutex_lock(mutex)
    heap.remove(alarm)
    heap.insert(alarm, deadline: earliest, leeway: earliest.duration(to: latest), sequence: nextSequence)
    nextSequence &+= 1
    let wake = waitingIdle || (waitingUntil.map { latest < $0 } ?? false)
    if !started {
      started = true
      startThread()
    }
    pthread_mutex_unlock(mutex)
    if wake { pthread_cond_signal(condition) }
  }

  /// Removes a disposed alarm.
  func cancelTimer(_ action: ScheduledTimer) {
    pthread_mutex_lock(mutex)
    heap.remove(action)
    pthread_mutex_unlock(mutex)
  }

  private func startThread() {
    #if canImport(Darwin)
      var thread: pthread_t? = nil
    #else
      var thread = pthread_t()
    #endif
    let result = pthread_create(&thread, nil, { _ in
      AlarmClock.reduceTimerSlack()
      AlarmClock.shared.run()
      return nil
    }, nil)
    precondition(result == 0, "AsyncSchedulers could not start its timer thread (pthread_create: \(result))")
  }

  private func run() {
    var due: [ScheduledTimer] = []
    // The deadline of the last timed wait: how late the thread woke for it is a hand-off sample.
    var waitedFor: SchedulerInstant?
    pthread_mutex_lock(mutex)
    while true {
      let now = SchedulerInstant.uptimeNow
      if let waited = waitedFor, waited <= now {
        HandOffLatency.recordAlarmWake(Int64(clamping: waited.duration(to: now).saturatingNanoseconds))
      }
      waitedFor = nil
      while let deadline = heap.firstDeadline, deadline <= now, let entry = heap.popFirst() {
        if let alarm = entry.timer { due.append(alarm) }
      }
      if !due.isEmpty {
        pthread_mutex_unlock(mutex)
        for alarm in due { alarm.run() }
        due.removeAll(keepingCapacity: true)
        pthread_mutex_lock(mutex)
        continue
      }
      guard let deadline = heap.windowEnd else {
        waitingIdle = true
        pthread_cond_wait(condition, mutex)
        waitingIdle = false
        continue
      }
      waitingUntil = deadline
      wait(until: deadline)
      waitingUntil = nil
      waitedFor = deadline
    }
  }

  /// Asks Linux to wake this thread at its deadline rather than up to 50 µs later (the default timer
  /// slack of a thread). `prctl` is variadic, so Swift cannot import it; it is reached by name. Failure
  /// only costs punctuality.
  private static func reduceTimerSlack() {
    #if os(Linux)
      typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else { return }
      let prSetTimerSlack: Int32 = 29
      _ = unsafeBitCast(symbol, to: Prctl.self)(prSetTimerSlack, 1, 0, 0, 0)
    #endif
  }

  /// Waits on the condition until `deadline` (monotonic uptime), or until signalled. Mutex held.
  private func wait(until deadline: SchedulerInstant) {
    #if os(Linux) || os(Android)
      let nanoseconds = deadline.offset.saturatingNanoseconds
      var time = timespec(
        tv_sec: Int(clamping: nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
      _ = pthread_cond_timedwait(condition, mutex, &time)
    #else
      let nanoseconds = SchedulerInstant.uptimeNow.duration(to: deadline).saturatingNanoseconds
      var time = timespec(
        tv_sec: Int(clamping: nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
      _ = pthread_cond_timedwait_relative_np(condition, mutex, &time)
    #endif
  }
}
