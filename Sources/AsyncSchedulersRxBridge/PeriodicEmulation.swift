import AsyncSchedulers
import Foundation
import Synchronization

/// Periodic scheduling emulated by relative scheduling, anchored to its grid: tick `k` is due at
/// `anchor + period × k`; after each tick the next one is the first grid point after the scheduler's
/// `now` (points a stall skipped are coalesced, and relative scheduling never accumulates drift).
final class PeriodicEmulation<State: Sendable>: Disposable, Sendable {

  private let scheduler: any SchedulerType
  private let anchor: RxTime
  private let period: TimeInterval?
  private let action: @Sendable (State) -> State
  /// The state the action threads from tick to tick (ticks never overlap: each schedules the next).
  private let current: Mutex<State>
  private let next = SerialDisposable()

  private init(
    scheduler: any SchedulerType, state: State, anchor: RxTime, period: TimeInterval?,
    action: @escaping @Sendable (State) -> State
  ) {
    self.scheduler = scheduler
    self.anchor = anchor
    self.period = period
    self.action = action
    self.current = Mutex(state)
  }

  /// Starts the emulation on `scheduler`; see `SchedulerType.schedulePeriodic`.
  static func start(
    on scheduler: any SchedulerType, state: State, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping @Sendable (State) -> State
  ) -> any Disposable {
    let seconds = period.rxSeconds
    if let seconds {
      checkArgument(seconds > 0, "schedulePeriodic: period must be positive or .never (got \(period))")
    }
    guard let first = startAfter.rxSeconds else { return Disposables.create() }
    let emulation = PeriodicEmulation(
      scheduler: scheduler, state: state, anchor: scheduler.now.addingTimeInterval(max(first, 0)),
      period: seconds, action: action)
    emulation.next.inner = scheduler.scheduleRelative((), dueTime: startAfter) { _ in
      emulation.tick(index: 0)
      return Disposables.create()
    }
    return emulation
  }

  var isDisposed: Bool { next.isDisposed }

  func dispose() { next.dispose() }

  private func tick(index: Int64) {
    guard !next.isDisposed else { return }
    let updated = action(current.withCriticalRegion { $0 })
    current.withCriticalRegion { $0 = updated }
    guard let period, !next.isDisposed else { return }
    // The first grid point after now, never one already run.
    let elapsed = scheduler.now.timeIntervalSince(anchor)
    let following = max(index + 1, Self.saturatingInt64((elapsed / period).rounded(.down)) &+ 1)
    let due = anchor.addingTimeInterval(period * Double(following))
    let delay = max(due.timeIntervalSince(scheduler.now), 0)
    next.inner = scheduler.scheduleRelative((), dueTime: Self.dispatchInterval(seconds: delay)) {
      [self] _ in
      tick(index: following)
      return Disposables.create()
    }
  }

  /// `seconds` (finite, not negative) as a `DispatchTimeInterval`, rounded up to the nanosecond; a delay
  /// beyond `Int64.max` nanoseconds (292 years) is given in whole seconds, saturating at `Int64.max / 2`
  /// seconds, instead of trapping converting to `Int`.
  static func dispatchInterval(seconds: TimeInterval) -> DispatchTimeInterval {
    let nanoseconds = (seconds * 1e9).rounded(.up)
    if nanoseconds < 9e18 { return .nanoseconds(Int(nanoseconds)) }
    return .seconds(Int(min(seconds.rounded(.up), Double(Int64.max / 2))))
  }

  /// `value` as an `Int64`, saturating at `0 ... Int64.max / 2` (NaN is zero).
  private static func saturatingInt64(_ value: Double) -> Int64 {
    value.isNaN ? 0 : Int64(min(max(value, 0), Double(Int64.max / 2)))
  }
}
