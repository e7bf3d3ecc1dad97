import AsyncSchedulers
import Synchronization

/// A thread-safe trace of strings.
final class Trace: Sendable {
  private let lines = Mutex<[String]>([])
  func callAsFunction(_ line: String) { lines.withCriticalRegion { $0.append(line) } }
  var values: [String] { lines.withCriticalRegion { $0 } }
}

extension SchedulerInstant {
  /// A compact time for traces: milliseconds since zero.
  var ms: Int { Int(SchedulerInstant.zero.duration(to: self) / .milliseconds(1)) }
}
