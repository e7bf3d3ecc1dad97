/// The errors RxSwift's operators fail with (RxSwift's `RxError`).
public enum RxError: Swift.Error, CustomDebugStringConvertible, @unchecked Sendable {
  // Why @unchecked Sendable: `disposed(object:)` carries the object only to name it in the message;
  // nothing reads or mutates it through the error.

  /// An unknown error.
  case unknown
  /// An operation was attempted on a disposed object.
  case disposed(object: AnyObject)
  /// An arithmetic overflow.
  case overflow
  /// An argument was out of range (`element(at:)` past the end).
  case argumentOutOfRange
  /// A sequence had no element where one was required (`Single` from an empty sequence).
  case noElements
  /// A sequence had more than one element where one was required (`Single`).
  case moreThanOneElement
  /// `timeout` elapsed with no element.
  case timeout

  /// RxSwift's description of the error.
  @inlinable public var debugDescription: String {
    switch self {
    case .unknown: "Unknown error occurred."
    case .disposed(let object): "Object `\(object)` was already disposed."
    case .overflow: "Arithmetic overflow occurred."
    case .argumentOutOfRange: "Argument out of range."
    case .noElements: "Sequence doesn't contain any elements."
    case .moreThanOneElement: "Sequence contains more than one element."
    case .timeout: "Sequence timeout."
    }
  }
}
