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

  /// A marble diagram of `events`: one character per `tick` of virtual time from zero (or from the
  /// first event, if that is before zero), `-` where nothing happened, events at the same tick grouped
  /// in parentheses, in arrival order.
  ///
  /// A run of more than ``longestDrawnGap`` empty ticks is written `~N~` (N empty ticks), so the
  /// diagram stays short whatever the times: a clock that starts at 1.7e9 s, or an event at
  /// `.distantFuture`. A `tick` that is not positive fails the test (the message names it) and one
  /// second is used instead.
  public static func marbles(_ events: [Event], tick: Duration) -> String {
    var tick = tick
    if tick <= .zero {
      reportIssue(
        "TestRecorder.marbles: tick must be greater than zero (got \(tick)); drawing one character per second",
        fileID: #fileID, filePath: #filePath, line: #line, column: #column)
      tick = .seconds(1)
    }
    // Stable: events at one tick keep their arrival order.
    let slotted = events.enumerated()
      .map { (slot: slot(of: $0.element.instant, tick: tick), order: $0.offset, marble: $0.element.marble) }
      .sorted { ($0.slot, $0.order) < ($1.slot, $1.order) }
    guard let firstSlot = slotted.first?.slot else { return "" }
    var diagram = ""
    var next = min(firstSlot, 0)  // the first slot not drawn yet
    var index = slotted.startIndex
    while index < slotted.endIndex {
      let slot = slotted[index].slot
      var cell: [String] = []
      while index < slotted.endIndex && slotted[index].slot == slot {
        cell.append(slotted[index].marble)
        index += 1
      }
      let gap = slot - next  // never negative: slots are sorted and `next` starts at or before the first
      diagram += gap > Int64(longestDrawnGap) ? "~\(gap)~" : String(repeating: "-", count: Int(gap))
      diagram += cell.count == 1 && cell[0].count == 1 ? cell[0] : "(" + cell.joined(separator: ",") + ")"
      next = slot + 1
    }
    return diagram
  }

  /// The longest run of empty ticks a marble diagram draws as `-`; longer runs are written `~N~`.
  public static var longestDrawnGap: Int { 32 }

  /// The tick `instant` falls in, counted from zero, clamped to ±2^62 (so an instant at `.distantPast`
  /// or `.distantFuture`, or a tiny tick, never traps converting to an integer).
  private static func slot(of instant: SchedulerInstant, tick: Duration) -> Int64 {
    let ticks = (SchedulerInstant.zero.duration(to: instant) / tick).rounded(.down)
    let limit = Double(Int64(1) << 62)
    return ticks.isNaN ? 0 : Int64(min(max(ticks, -limit), limit))
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
