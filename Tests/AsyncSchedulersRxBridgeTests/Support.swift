import AsyncSchedulers
import AsyncSchedulersRxBridge
import Foundation
import Synchronization

/// A thread-safe log of strings.
final class Log: Sendable {
  private let lines = Mutex<[String]>([])
  func callAsFunction(_ line: String) { lines.withCriticalRegion { $0.append(line) } }
  var values: [String] { lines.withCriticalRegion { $0 } }
}

/// Seconds since 1970 of a historical scheduler's clock, for readable traces.
extension HistoricalScheduler {
  var seconds: Double { clock.timeIntervalSince1970 }
}

/// Runs a job on `scheduler` and waits for it, so everything scheduled before has run (FIFO).
func drain(_ scheduler: some ImmediateSchedulerType) async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    _ = scheduler.schedule(()) { _ in
      continuation.resume()
      return Disposables.create()
    }
  }
}
