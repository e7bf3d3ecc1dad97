import AsyncSchedulers

/// ReactiveObjC's `RACSchedulerPriority`.
public enum RACSchedulerPriority: Sendable, Hashable {
  /// `RACSchedulerPriorityHigh`.
  case high
  /// `RACSchedulerPriorityDefault`.
  case `default`
  /// `RACSchedulerPriorityLow`.
  case low
  /// `RACSchedulerPriorityBackground`.
  case background

  /// The core priority it maps to.
  public var schedulerPriority: SchedulerPriority {
    switch self {
    case .high: .high
    case .default: .default
    case .low: .low
    case .background: .background
    }
  }
}
