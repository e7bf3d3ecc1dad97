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

/// A value behind a lock that closures and tasks can share.
final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>
  init(_ value: Value) { mutex = Mutex(value) }
  func withCriticalRegion<Result: Sendable>(_ body: (inout sending Value) -> sending Result) -> Result {
    mutex.withCriticalRegion(body)
  }
}
