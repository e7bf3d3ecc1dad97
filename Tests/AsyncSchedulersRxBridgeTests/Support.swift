import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTesting
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

/// An observer recording every event with the virtual millisecond it arrived at (`-1` without a clock).
final class Recorder<Element: Sendable>: ObserverType, Sendable {
  private let log = Mutex<[(Int, Event<Element>)]>([])
  private let clock: TestScheduler?

  init(clock: TestScheduler? = nil) { self.clock = clock }

  func on(_ event: Event<Element>) {
    let now = clock.map { Int(($0.now.offset / .milliseconds(1)).rounded()) } ?? -1
    log.withCriticalRegion { $0.append((now, event)) }
  }

  /// The events as `"value@ms"`, `"completed@ms"`, `"error(description)@ms"` (no `@` without a clock).
  var trace: [String] {
    log.withCriticalRegion { entries in
      entries.map { time, event in
        let text: String
        switch event {
        case .next(let value): text = "\(value)"
        case .completed: text = "completed"
        case .error(let error): text = "error(\(error))"
        }
        return time < 0 ? text : "\(text)@\(time)"
      }
    }
  }
}

/// The events `sequence` sends synchronously to one subscription, as `Recorder.trace` writes them.
func trace<Sequence: ObservableConvertibleType>(_ sequence: Sequence) -> [String] where Sequence.Element: Sendable {
  let recorder = Recorder<Sequence.Element>()
  _ = sequence.asObservable().subscribe(recorder)
  return recorder.trace
}

/// An error for tests.
struct TestError: Error, CustomStringConvertible, Equatable {
  var name = "boom"
  var description: String { name }
}
