import AppPatterns
import AsyncSchedulers
import Dispatch
import Foundation
import Synchronization

/// The callback-era patterns of `AppPatterns` (Dispatch code with no import of this package), each run
/// the way a test would, with the timeline it must give, computed by hand. The same run works on the
/// virtual clock (inside a `.virtualTime` test, where `DispatchTime.now()` and `Task.sleep` are virtual)
/// and on the real one (outside any scope, where they are real), so the expected timeline is checked
/// against what a device does.
enum CallbackScenario: String, CaseIterable, Sendable {
  case completionHandlerBeatsTimeout
  case timeoutBeatsCompletionHandler
  case workItemDebounceOnMainQueue
  case retryWithBackoff
  case queueWorkBeatsTimeout
  case dispatchSourcePoller

  /// The queue the global-work pattern hands its work to.
  static let workQueue = DispatchQueue(label: "CallbackScenario work")

  /// The timeline, in milliseconds from the start of the run.
  var expected: [String] {
    switch self {
    case .completionHandlerBeatsTimeout: ["user 7 at 50"]
    case .timeoutBeatsCompletionHandler: ["timed out at 300"]
    case .workItemDebounceOnMainQueue: ["search swi at 500"]
    case .retryWithBackoff: ["attempt 1 at 0", "attempt 2 at 100", "attempt 3 at 300", "succeeded at 300"]
    case .queueWorkBeatsTimeout: ["computed at 0"]
    case .dispatchSourcePoller: ["poll 1 at 100", "poll 2 at 200", "poll 3 at 300", "stopped at 300"]
    }
  }

  /// Runs the pattern and returns its timeline, read on `DispatchTime`'s clock (virtual in a scope's
  /// code, real elsewhere).
  func run() async -> [String] {
    let log = LineLog()
    let trace: @Sendable (String) -> Void = { log.append($0) }
    switch self {
    case .completionHandlerBeatsTimeout:
      let user = await userOrTimeout(UserService(latency: 0.05), timeout: .seconds(2))
      trace(user ?? "timed out")
    case .timeoutBeatsCompletionHandler:
      // The handler's delay (0.5 s) outlasts the timeout; the task group returns when the handler does,
      // so the timeout is traced by the timeout's own task.
      let service = UserService(latency: 0.5)
      await withTaskGroup(of: Void.self) { group in
        group.addTask { _ = await service.user(id: 7) }
        group.addTask {
          try? await Task.sleep(for: .milliseconds(300))
          trace("timed out")
        }
      }
    case .workItemDebounceOnMainQueue:
      await Self.typeIntoDebouncedSearch(trace: trace)
    case .retryWithBackoff:
      let queue = DispatchQueue(label: "retry")
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        AppPatterns.retryWithBackoff(
          queue: queue, initialDelay: 0.1, maximumAttempts: 4,
          attempt: { number in
            trace("attempt \(number)")
            return number == 3
          },
          completion: { _, succeeded in
            trace(succeeded ? "succeeded" : "gave up")
            continuation.resume()
          })
      }
    case .queueWorkBeatsTimeout:
      // A queue of its own (as a service keeps one): on Linux the global queues share Swift's
      // cooperative pool, which a thousand runs of blocking work would load for the whole suite.
      let answer = await Self.workOrTimeout(on: Self.workQueue, working: 0.002)
      trace(answer)
    case .dispatchSourcePoller:
      await Self.pollThreeTimes(trace: trace)
      trace("stopped")
    }
    return log.lines
  }

  /// Races `working` seconds of real work handed to `queue` (a thread sleeping, as blocking work does)
  /// against a 1 s `Task.sleep` timeout; the winner's answer, "computed" or "timed out".
  static func workOrTimeout(on queue: DispatchQueue, working seconds: Double) async -> String {
    await withTaskGroup(of: String.self) { group in
      group.addTask {
        await withCheckedContinuation { continuation in
          queue.async {
            Thread.sleep(forTimeInterval: seconds)  // real work, on a real thread
            continuation.resume(returning: "computed")
          }
        }
      }
      group.addTask {
        try? await Task.sleep(for: .seconds(1))
        return "timed out"
      }
      defer { group.cancelAll() }
      return await group.next()!
    }
  }

  /// Polls on a `DispatchSource` poller every 100 ms and stops it from its third poll's handler.
  private static func pollThreeTimes(trace: @escaping @Sendable (String) -> Void) async {
    let polls = PollCount()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let poller = SourcePoller(interval: 0.1) {
        let count = polls.next()
        trace("poll \(count)")
        if count == 3 {
          polls.stop()
          continuation.resume()
        }
      }
      polls.keep(poller)
      poller.start()
    }
  }

  /// Types three keystrokes 100 ms apart into a main-queue debounced search, then waits 400 ms.
  @MainActor
  private static func typeIntoDebouncedSearch(trace: @escaping @Sendable (String) -> Void) async {
    let search = DebouncedSearch(delay: 0.3) { trace("search \($0)") }
    search.type("s")
    try? await Task.sleep(for: .milliseconds(100))
    search.type("sw")
    try? await Task.sleep(for: .milliseconds(100))
    search.type("swi")
    try? await Task.sleep(for: .milliseconds(400))
  }
}

/// Lines stamped with the milliseconds since it was made, on `DispatchTime`'s clock.
private final class LineLog: Sendable {
  private let start = DispatchTime.now().uptimeNanoseconds
  private let storage = Mutex<[String]>([])

  func append(_ line: String) {
    let elapsed = Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
    storage.withCriticalRegion { $0.append("\(line) at \(elapsed)") }
  }

  var lines: [String] { storage.withCriticalRegion { $0 } }
}

/// A poller's count of polls, and the poller, which its own handler stops.
private final class PollCount: Sendable {
  private let state = Mutex<(count: Int, poller: SourcePoller?)>((0, nil))

  func keep(_ poller: SourcePoller) { state.withCriticalRegion { $0.poller = poller } }
  func next() -> Int {
    state.withCriticalRegion {
      $0.count += 1
      return $0.count
    }
  }
  func stop() { state.withCriticalRegion { $0.poller }?.stop() }
}
