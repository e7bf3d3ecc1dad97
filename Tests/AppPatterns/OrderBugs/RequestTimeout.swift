// App code as a team writes it: no import of swift-async-schedulers.

/// Where a request's outcome is logged (its own actor).
public actor RequestLog {
  public private(set) var lines: [String] = []
  public init() {}
  public func write(_ line: String) { lines.append(line) }
}

/// Order bug: a request raced against a timeout, each side checking that the other has not finished,
/// then logging, then finishing: a response and a timeout at the same instant both pass the check, and
/// the completion (a continuation's resume, in real code) runs twice.
@MainActor
public final class TimedRequest {
  public private(set) var completions: [String] = []
  private var finished = false
  private let log: RequestLog
  public init(log: RequestLog) { self.log = log }

  public func start(latency: Duration, timeout: Duration) {
    Task {
      try? await Task.sleep(for: latency)
      await finish("response")
    }
    Task {
      try? await Task.sleep(for: timeout)
      await finish("timeout")
    }
  }

  private func finish(_ outcome: String) async {
    guard !finished else { return }
    await log.write(outcome)
    finished = true
    completions.append(outcome)
  }
}

/// The fix: the side that finishes first claims the request before anything is awaited.
@MainActor
public final class ClaimingTimedRequest {
  public private(set) var completions: [String] = []
  private var finished = false
  private let log: RequestLog
  public init(log: RequestLog) { self.log = log }

  public func start(latency: Duration, timeout: Duration) {
    Task {
      try? await Task.sleep(for: latency)
      await finish("response")
    }
    Task {
      try? await Task.sleep(for: timeout)
      await finish("timeout")
    }
  }

  private func finish(_ outcome: String) async {
    guard !finished else { return }
    finished = true
    await log.write(outcome)
    completions.append(outcome)
  }
}
