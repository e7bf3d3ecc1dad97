import Dispatch
import Synchronization

/// How long handing a timer to a worker takes on this machine, measured as the process runs: the alarm
/// thread's lateness waking from its timed wait, plus the delay between asking Dispatch for a worker
/// and the worker starting. The timer window (how early the alarm goes off so that a worker is already
/// spinning when the timer falls due) follows it: a few tens of microseconds on a quiet machine,
/// hundreds on a loaded virtual machine (capped at 0.5 ms, so a spin costs at most that per timer).
/// Both figures are moving averages (1/8 weight per sample, each sample capped at 2 ms so that one stall
/// does not inflate the window for long).
enum HandOffLatency {
  private static let alarmWake = Atomic<Int64>(25_000)
  private static let workerStart = Atomic<Int64>(25_000)

  /// The smallest and largest timer windows.
  static let minimumWindow: Int64 = 50_000
  static let maximumWindow: Int64 = 500_000

  /// Records how late (nanoseconds) the alarm thread woke for a deadline.
  static func recordAlarmWake(_ nanoseconds: Int64) { record(nanoseconds, into: alarmWake) }

  /// Records how long (nanoseconds) a requested worker took to start.
  static func recordWorkerStart(_ nanoseconds: Int64) { record(nanoseconds, into: workerStart) }

  private static func record(_ sample: Int64, into average: borrowing Atomic<Int64>) {
    // Racing updates may lose a sample; the average stays a sensible estimate.
    average.store(averaged(average.load(ordering: .relaxed), with: sample), ordering: .relaxed)
  }

  /// The moving average `average` after one more `sample` (capped at 2 ms, 1/8 weight).
  static func averaged(_ average: Int64, with sample: Int64) -> Int64 {
    let sample = Swift.min(Swift.max(sample, 0), 2_000_000)
    return average + (sample - average) / 8
  }

  /// The timer window for the given average latencies: twice the expected hand-off plus 20 µs,
  /// within ``minimumWindow`` and ``maximumWindow``.
  static func window(alarmWake: Int64, workerStart: Int64) -> Duration {
    .nanoseconds(Swift.min(Swift.max(2 * (alarmWake + workerStart) + 20_000, minimumWindow), maximumWindow))
  }

  /// The current timer window.
  static var window: Duration {
    window(alarmWake: alarmWake.load(ordering: .relaxed), workerStart: workerStart.load(ordering: .relaxed))
  }

  /// Uptime in nanoseconds.
  @inline(__always)
  static var now: Int64 { Int64(clamping: DispatchTime.now().uptimeNanoseconds) }
}
