import AsyncSchedulers
import Foundation

/// RxSwift's conversion between a virtual time scheduler's own time units and real time.
public protocol VirtualTimeConverterType: Sendable {
  /// The virtual time (an instant).
  associatedtype VirtualTimeUnit: Sendable
  /// The virtual time interval.
  associatedtype VirtualTimeIntervalUnit: Sendable

  /// Converts a virtual time to a `Date`.
  func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
  /// Converts a `Date` to a virtual time.
  func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
  /// Converts a virtual time interval to seconds.
  func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval
  /// Converts seconds to a virtual time interval.
  func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit
  /// The virtual time `offset` after `time`.
  func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit
  /// How two virtual times compare.
  func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

/// The order of two virtual times.
public enum VirtualTimeComparison: Sendable, Equatable {
  /// The left time is earlier.
  case lessThan
  /// The times are equal.
  case equal
  /// The left time is later.
  case greaterThan
}

/// The converter of ``HistoricalScheduler``: virtual time is a `Date`, intervals are seconds.
public struct HistoricalSchedulerTimeConverter: VirtualTimeConverterType {
  /// A `Date`.
  public typealias VirtualTimeUnit = RxTime
  /// Seconds.
  public typealias VirtualTimeIntervalUnit = TimeInterval

  /// The converter.
  public init() {}

  /// The same date.
  public func convertFromVirtualTime(_ virtualTime: RxTime) -> RxTime { virtualTime }
  /// The same date.
  public func convertToVirtualTime(_ time: RxTime) -> RxTime { time }
  /// The same seconds.
  public func convertFromVirtualTimeInterval(_ virtualTimeInterval: TimeInterval) -> TimeInterval {
    virtualTimeInterval
  }
  /// The same seconds.
  public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> TimeInterval { timeInterval }
  /// `time` plus `offset` seconds.
  public func offsetVirtualTime(_ time: RxTime, offset: TimeInterval) -> RxTime { time.addingTimeInterval(offset) }
  /// The order of the two dates.
  /// - Precondition: neither is NaN (a NaN date has no place on the timeline: the scheduler's clock
  ///   would become NaN). Every `HistoricalScheduler` entry point that takes a date or an interval
  ///   compares it, so a NaN stops there, naming it.
  public func compareVirtualTime(_ lhs: RxTime, _ rhs: RxTime) -> VirtualTimeComparison {
    checkArgument(
      !lhs.timeIntervalSinceReferenceDate.isNaN && !rhs.timeIntervalSinceReferenceDate.isNaN,
      "HistoricalScheduler: not a valid date (NaN): \(lhs.timeIntervalSinceReferenceDate) vs \(rhs.timeIntervalSinceReferenceDate)"
    )
    return lhs < rhs ? .lessThan : lhs == rhs ? .equal : .greaterThan
  }
}
