import AsyncSignals

/// The kind of a ``RACEvent`` (`RACEventType`).
public enum RACEventType: Sendable {
  /// The signal completed (`RACEventTypeCompleted`).
  case completed
  /// The signal sent an error (`RACEventTypeError`).
  case error
  /// The signal sent a value (`RACEventTypeNext`).
  case next
}

/// One event of a signal as a value, as ``RACSignal/materialize()`` sends them (ReactiveObjC's
/// `RACEvent`).
public final class RACEvent<Value: Sendable>: Sendable, CustomStringConvertible {
  /// The kind of event.
  public let eventType: RACEventType
  /// The value of a `next` event (`nil` for the others, and for a `nil` value).
  public let value: Value?
  /// The error of an `error` event (`nil` for the others, and for RAC's `nil` error).
  public let error: (any Error)?

  private init(_ eventType: RACEventType, value: Value?, error: (any Error)?) {
    self.eventType = eventType
    self.value = value
    self.error = error
  }

  /// Whether it ends the signal (completed or error).
  public var isFinished: Bool { eventType != .next }

  /// The completed event (`+completedEvent`).
  public class func completedEvent() -> RACEvent { RACEvent(.completed, value: nil, error: nil) }

  /// An error event (`+eventWithError:`).
  public class func event(withError error: (any Error)?) -> RACEvent { RACEvent(.error, value: nil, error: error) }

  /// A value event (`+eventWithValue:`).
  public class func event(withValue value: Value?) -> RACEvent { RACEvent(.next, value: value, error: nil) }

  /// The event, as `next(1)`, `error(…)` or `completed`.
  public var description: String {
    switch eventType {
    case .next: "next(\(value.map { "\($0)" } ?? "nil"))"
    case .error: "error(\(error.map { "\($0)" } ?? "nil"))"
    case .completed: "completed"
    }
  }
}
