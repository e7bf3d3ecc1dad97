import Dispatch

/// The priority of a scheduler's work: RAC's four priorities, mapped onto Dispatch QoS (for the
/// queue its workers run on) and `TaskPriority`.
public enum SchedulerPriority: Sendable, Hashable, CaseIterable {
  /// RAC `RACSchedulerPriorityHigh`: user-initiated work.
  case high
  /// RAC `RACSchedulerPriorityDefault`.
  case `default`
  /// RAC `RACSchedulerPriorityLow`: utility work.
  case low
  /// RAC `RACSchedulerPriorityBackground`.
  case background

  /// The Dispatch quality of service for this priority.
  public var qos: DispatchQoS.QoSClass {
    switch self {
    case .high: .userInitiated
    case .default: .default
    case .low: .utility
    case .background: .background
    }
  }

  /// The task priority for this priority.
  public var taskPriority: TaskPriority {
    switch self {
    case .high: .high
    case .default: .medium
    case .low: .low
    case .background: .background
    }
  }
}
