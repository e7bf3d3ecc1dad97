// Test infrastructure for RAC code in Swift 5 mode, importing only the bridge (and its test module), as
// the code it checks does.
import AsyncSchedulersBridge
import AsyncSchedulersBridgeTesting

/// A virtual timeline for RAC operators: cold signals that send at given seconds after they are
/// subscribed, on one `RACTestScheduler`, and a log of what a subscriber saw, stamped with the virtual
/// second it saw it. Tests compare the log against a timeline computed by hand.
final class RACTimeline: Sendable {
  /// How a timed signal ends.
  enum Ending: Sendable {
    case completed(at: Double)
    case failed(at: Double)
    case never
  }

  /// A failure with a name, so a log line shows which signal failed.
  struct Failure: Error, CustomStringConvertible {
    let name: String
    var description: String { name }
  }

  let scheduler = RACTestScheduler()
  let log = Lines()

  /// The virtual seconds since the timeline started, as `%g` prints them (`1`, `2.5`).
  var now: String { String(format: "%g", scheduler.testScheduler.now.offset / .seconds(1)) }

  /// A cold signal: each subscription sends `values` at their seconds after it, then ends as `ending`
  /// says; disposing it cancels what has not been sent.
  func signal<Value: Sendable>(
    _ values: [(Double, Value)], _ ending: Ending, named name: String = "failure"
  ) -> RACSignal<Value> {
    let scheduler = self.scheduler
    return RACSignal<Value>.createSignal { subscriber in
      let compound = RACCompoundDisposable()
      for (delay, value) in values {
        if let block = scheduler.afterDelay(delay, schedule: { subscriber.sendNext(value) }) { compound.add(block) }
      }
      let end: RACDisposable? =
        switch ending {
        case .completed(let delay): scheduler.afterDelay(delay) { subscriber.sendCompleted() }
        case .failed(let delay): scheduler.afterDelay(delay) { subscriber.sendError(Failure(name: name)) }
        case .never: nil
        }
      if let end { compound.add(end) }
      return compound
    }
  }

  /// Subscribes to `signal`, logging each event as `"<second> <event>"`.
  @discardableResult
  func record<Value: Sendable>(
    _ signal: RACSignal<Value>, as prefix: String = "",
    _ describe: @escaping @Sendable (Value?) -> String = { $0.map { "\($0)" } ?? "nil" }
  ) -> RACDisposable {
    signal.subscribeNext(
      { self.log.append("\(self.now) \(prefix)\(describe($0))") },
      error: { self.log.append("\(self.now) \(prefix)error \($0.map { "\($0)" } ?? "nil")") },
      completed: { self.log.append("\(self.now) \(prefix)completed") })
  }

  /// Runs `body` at `second` of the timeline (a later subscription, a subject's send).
  func at(_ second: Double, _ body: @escaping @Sendable () -> Void) {
    _ = scheduler.afterDelay(second, schedule: body)
  }

  /// Runs every block due and returns the log.
  func run() -> [String] {
    scheduler.stepAll()
    return log.values
  }
}
