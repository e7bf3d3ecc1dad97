/// One event of an observable sequence (RxSwift's `Event`): a value, the error that ended it, or its
/// successful end. A sequence sends `next* (error | completed)?`.
public enum Event<Element> {
  /// A value.
  case next(Element)
  /// The sequence ended with an error; nothing follows.
  case error(any Swift.Error)
  /// The sequence ended successfully; nothing follows.
  case completed
}

extension Event: Sendable where Element: Sendable {}

extension Event {
  /// Whether this event ends the sequence (`error` or `completed`).
  @inlinable public var isStopEvent: Bool {
    if case .next = self { return false }
    return true
  }

  /// The value of a `next` event, or `nil`.
  @inlinable public var element: Element? {
    if case .next(let value) = self { return value }
    return nil
  }

  /// The error of an `error` event, or `nil`.
  @inlinable public var error: (any Swift.Error)? {
    if case .error(let error) = self { return error }
    return nil
  }

  /// Whether this is the `completed` event.
  @inlinable public var isCompleted: Bool {
    if case .completed = self { return true }
    return false
  }

  /// The event with its value transformed; an error thrown by `transform` becomes an `error` event.
  ///
  /// `transform` runs on the calling thread, only for a `next` event.
  @inlinable public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
    switch self {
    case .next(let value):
      do { return .next(try transform(value)) } catch { return .error(error) }
    case .error(let error): return .error(error)
    case .completed: return .completed
    }
  }
}

extension Event: CustomDebugStringConvertible {
  /// `next(value)`, `error(error)` or `completed`, as RxSwift prints events.
  @inlinable public var debugDescription: String {
    switch self {
    case .next(let value): "next(\(value))"
    case .error(let error): "error(\(error))"
    case .completed: "completed"
    }
  }
}

extension Event: Equatable where Element: Equatable {
  /// Equal when both are the same value, both completions, or both errors with the same description
  /// (errors are not `Equatable`; RxTest compares them the same way).
  @inlinable public static func == (lhs: Event, rhs: Event) -> Bool {
    switch (lhs, rhs) {
    case (.next(let a), .next(let b)): a == b
    case (.completed, .completed): true
    case (.error(let a), .error(let b)): String(reflecting: a) == String(reflecting: b)
    default: false
    }
  }
}
