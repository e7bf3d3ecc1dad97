import AsyncSchedulers
import Synchronization

/// Records values with the virtual time they arrived at, and prints a readable timeline when an
/// expectation fails (RxTest's `TestableObserver`, with marble-style output).
///
/// ```swift
/// let recorder = TestRecorder<String>(scheduler: scheduler)
/// recorder.record("a")                         // at scheduler.now
/// recorder.expect([.value("a", at: .zero)])
/// ```
/// Recording is thread-safe and never blocks for long.
public final class TestRecorder<Value: Sendable>: Sendable {
  /// One recorded event.
  public enum Event: Sendable, CustomStringConvertible {
    /// A value, and when it arrived.
    case value(Value, at: SchedulerInstant)
    /// The end of the stream.
    case finished(at: SchedulerInstant)
    /// A failure, described.
    case failure(String, at: SchedulerInstant)

    /// When the event arrived.
    public var instant: SchedulerInstant {
      switch self {
      case .value(_, let at), .finished(let at), .failure(_, let at): at
      }
    }

    /// The event as `value@time`, `|@time` (finished) or `#error@time` (failure).
    public var description: String {
      switch self {
      case .value(let value, let at): "\(value)@\(at)"
      case .finished(let at): "|@\(at)"
      case .failure(let error, let at): "#\(error)@\(at)"
      }
    }

    fileprivate var marble: String {
      switch self {
      case .value(let value, _): "\(value)"
      case .finished: "|"
      case .failure: "#"
      }
    }
  }

  private let scheduler: any Scheduler
  private let storage = Mutex<[Event]>([])

  /// Creates a recorder that timestamps events with `scheduler.now`.
  public init(scheduler: any Scheduler) { self.scheduler = scheduler }

  /// The events recorded so far, in arrival order.
  public var events: [Event] { storage.withCriticalRegion { $0 } }

  /// Records `value` at the scheduler's current instant.
  public func record(_ value: Value) { append(.value(value, at: scheduler.now)) }

  /// Records the end of the stream.
  public func finish() { append(.finished(at: scheduler.now)) }

  /// Records a failure.
  public func fail(_ error: any Error) { append(.failure("\(error)", at: scheduler.now)) }

  private func append(_ event: Event) { storage.withCriticalRegion { $0.append(event) } }

  /// A marble diagram of `events`: one character per `tick` of virtual time from zero, `-` where
  /// nothing happened, events at the same tick grouped in parentheses.
  public static func marbles(_ events: [Event], tick: Duration) -> String {
    guard let last = events.map(\.instant).max() else { return "" }
    let slots = Int(SchedulerInstant.zero.duration(to: last) / tick) + 1
    var cells = Array(repeating: [String](), count: max(slots, 1))
    for event in events {
      let slot = Int(SchedulerInstant.zero.duration(to: event.instant) / tick)
      cells[min(max(slot, 0), cells.count - 1)].append(event.marble)
    }
    return cells.map { cell in
      switch cell.count {
      case 0: "-"
      case 1 where cell[0].count == 1: cell[0]
      default: "(" + cell.joined(separator: ",") + ")"
      }
    }.joined()
  }

  /// The recorded timeline as a marble diagram; see ``marbles(_:tick:)``.
  public func timeline(tick: Duration = .seconds(1)) -> String { Self.marbles(events, tick: tick) }
}

extension TestRecorder.Event: Equatable where Value: Equatable {}

extension TestRecorder where Value: Equatable {
  /// Fails the test unless exactly `expected` was recorded, printing both timelines (as marbles and
  /// as lists) when they differ.
  @discardableResult
  public func expect(
    _ expected: [Event], tick: Duration = .seconds(1),
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column
  ) -> Bool {
    let actual = events
    guard actual != expected else { return true }
    reportIssue(
      """
      Recorded timeline differs (one character per \(tick)):
        expected: \(Self.marbles(expected, tick: tick))
        actual:   \(Self.marbles(actual, tick: tick))
        expected events: \(expected)
        actual events:   \(actual)
      """, fileID: fileID, filePath: filePath, line: line, column: column)
    return false
  }
}
