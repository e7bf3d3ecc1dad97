import Dispatch

/// A point on a scheduler's timeline, measured as an offset from the timeline's origin.
///
/// Real-time schedulers share one origin, the system's monotonic uptime clock (the clock behind
/// `DispatchTime`), so instants from different real-time schedulers compare meaningfully. A virtual-time
/// `TestScheduler` starts its own timeline at ``zero``.
///
/// Instants are plain values: creating or comparing them never blocks and never touches a scheduler.
public struct SchedulerInstant: InstantProtocol, Hashable, Sendable, CustomStringConvertible {
  /// The distance from the timeline's origin.
  public var offset: Duration

  /// Creates an instant at `offset` from the timeline's origin.
  public init(offset: Duration) { self.offset = offset }

  /// The origin of a timeline; a virtual-time scheduler's clock starts here.
  public static let zero = SchedulerInstant(offset: .zero)

  /// An instant so far in the future that work scheduled for it never runs in practice.
  public static let distantFuture = SchedulerInstant(offset: .seconds(Int64.max / 4))

  /// The current instant of the real-time timeline (monotonic uptime).
  ///
  /// Never blocks. This is the `now` of every real-time scheduler in this package.
  public static var uptimeNow: SchedulerInstant {
    SchedulerInstant(offset: .nanoseconds(Int64(clamping: DispatchTime.now().uptimeNanoseconds)))
  }

  /// An instant so far in the past that work scheduled for it is simply overdue.
  public static let distantPast = SchedulerInstant(offset: .zero - distantFuture.offset)

  /// Returns the instant `duration` after this one, saturating at ``distantFuture`` and ``distantPast``
  /// (never traps, whatever the duration).
  public func advanced(by duration: Duration) -> SchedulerInstant {
    let limit = SchedulerInstant.distantFuture.offset
    let clampedSelf = Swift.min(Swift.max(offset, .zero - limit), limit)
    let clampedDuration = Swift.min(Swift.max(duration, .zero - limit - limit), limit + limit)
    let sum = clampedSelf + clampedDuration
    if sum >= limit { return .distantFuture }
    if sum <= .zero - limit { return .distantPast }
    return SchedulerInstant(offset: sum)
  }

  /// The duration from this instant to `other` (negative when `other` is earlier).
  public func duration(to other: SchedulerInstant) -> Duration { other.offset - offset }

  /// Orders instants by their offset.
  public static func < (lhs: SchedulerInstant, rhs: SchedulerInstant) -> Bool { lhs.offset < rhs.offset }

  /// The offset, written the way `Duration` writes itself (for example `1.5 seconds`).
  public var description: String { "\(offset)" }
}

extension Duration {
  /// Whole nanoseconds, saturating at `0...UInt64.max`; used to talk to Dispatch.
  var saturatingNanoseconds: UInt64 {
    let (seconds, attoseconds) = components
    if seconds < 0 || (seconds == 0 && attoseconds < 0) { return 0 }
    if seconds >= Int64(UInt64.max / 1_000_000_000) { return UInt64.max }
    return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
  }
}

extension SchedulerInstant {
  /// This instant as a `DispatchTime`, assuming the real-time (uptime) origin.
  package var dispatchTime: DispatchTime {
    let ns = offset.saturatingNanoseconds
    return ns >= UInt64(Int64.max) ? .distantFuture : DispatchTime(uptimeNanoseconds: Swift.max(ns, 1))
  }
}
