import AsyncSchedulers
import Dispatch
import Foundation

/// RxSwift's absolute time: a wall-clock `Date`.
public typealias RxTime = Date

/// RxSwift's time interval: a `DispatchTimeInterval` (`.never` means "never").
public typealias RxTimeInterval = DispatchTimeInterval

extension DispatchTimeInterval {
  /// The interval as a `Duration`, or `nil` for `.never`. Negative intervals stay negative (a due time
  /// in the past means "as soon as possible", as with Dispatch).
  @usableFromInline var rxDuration: Duration? {
    switch self {
    case .seconds(let value): .seconds(value)
    case .milliseconds(let value): .milliseconds(value)
    case .microseconds(let value): .microseconds(value)
    case .nanoseconds(let value): .nanoseconds(value)
    case .never: nil
    @unknown default: nil
    }
  }

  /// A duration as Rx's interval: nanoseconds, rounded up (a timer never fires before its deadline),
  /// never negative; beyond 292 years, never.
  static func roundedUp(_ duration: Duration) -> RxTimeInterval {
    let (seconds, attoseconds) = max(duration, .zero).components
    let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow else { return .never }
    let (whole, fraction) = attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
    return .nanoseconds(Int(clamping: nanoseconds &+ whole &+ (fraction > 0 ? 1 : 0)))
  }

  /// The interval in seconds, or `nil` for `.never`.
  var rxSeconds: TimeInterval? {
    rxDuration.map { duration in
      let (seconds, attoseconds) = duration.components
      return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
  }
}
