import AsyncSchedulers
import Foundation
import Synchronization

/// An Rx `SchedulerType` that runs on no core scheduler (`VirtualTimeScheduler`, `HistoricalScheduler`,
/// a custom scheduler), seen as a native ``/AsyncSchedulers/Scheduler``: the timed operators (`timer`,
/// `delay`, `debounce`, `throttle`, `timeout`, …) run their timers through the Rx scheduler's own
/// `schedule`, `scheduleRelative` and `schedulePeriodic`, so they follow its clock (virtual time
/// included: they fire when the test drives the scheduler, at their exact virtual times).
///
/// Instants are the Rx scheduler's `now` (a `Date`) as seconds since 1970; a deadline becomes the
/// relative delay from the Rx scheduler's `now` when it is scheduled. Work runs where the Rx scheduler
/// runs its actions (for a virtual-time scheduler: on the thread that drives it). Disposing a handle
/// before its time means the action never runs; repeating work stops for good when its handle is
/// disposed.
final class SchedulerTypeCore: Scheduler, Sendable {
  private let rx: any SchedulerType
  /// The latest deadline a timer of this view fired at: `now` never reads earlier (a `Date` holds
  /// seconds as a `Double`, so the Rx clock at a timer's firing may read a few nanoseconds before the
  /// deadline, and an operator that finds its deadline not yet reached would schedule again at once,
  /// forever).
  private let firedUpTo = Mutex(SchedulerInstant.distantPast)

  init(_ rx: any SchedulerType) { self.rx = rx }

  var name: String { "\(type(of: rx))" }

  /// The Rx scheduler's `now`, as seconds since 1970 (never before a deadline already fired).
  var now: SchedulerInstant {
    max(SchedulerInstant(offset: .seconds(rx.now.timeIntervalSince1970)), firedUpTo.withCriticalRegion { $0 })
  }

  /// Runs `timer`, due at `deadline`, noting that the clock reached the deadline.
  private func fire(_ timer: ScheduledTimer, dueAt deadline: SchedulerInstant) {
    firedUpTo.withCriticalRegion { $0 = max($0, deadline) }
    timer.run()
  }

  func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction {
    let link = RxLink()
    let timer = ScheduledTimer(owner: link, action)
    link.attach(
      rx.schedule(()) { _ in
        timer.run()
        return Disposables.create()
      })
    return timer
  }

  func schedule(at deadline: SchedulerInstant, leeway: Duration, _ action: @escaping @Sendable () -> Void)
    -> ScheduledAction
  {
    let link = RxLink()
    let timer = ScheduledTimer(owner: link, action)
    link.attach(
      rx.scheduleRelative((), dueTime: RxTimeInterval.roundedUp(now.duration(to: deadline))) { [self] _ in
        fire(timer, dueAt: deadline)
        return Disposables.create()
      })
    return timer
  }

  func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    preconditionValidRepeating(interval: interval, leeway: leeway)
    let link = RxLink()
    let timer = RepeatingTimer(owner: link, start: start, interval: interval, action)
    link.attach(
      rx.schedulePeriodic(
        (), startAfter: RxTimeInterval.roundedUp(now.duration(to: start)), period: RxTimeInterval.roundedUp(interval)
      ) {
        [self] _ in fire(timer, dueAt: max(start, now))
      })
    return timer
  }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    _ = rx.schedule(()) { [self] _ in
      job.runSynchronously(on: asUnownedTaskExecutor())
      return Disposables.create()
    }
  }

}

/// What a handle of ``SchedulerTypeCore`` disposes when it is disposed: the Rx scheduler's disposable
/// for its work (a virtual-time scheduler then skips the work without moving its clock to it).
///
/// The Rx disposable is held weakly when it is an object: the Rx scheduler holds it while the work is
/// pending, and its action holds the handle, which holds this link (a strong reference would make a
/// cycle that outlives a scheduler dropped with work pending).
private final class RxLink: TimerOwner, Sendable {
  private struct State {
    weak var object: AnyObject?
    var value: (any Disposable)?
    var cancelled = false
  }

  private let state = Mutex(State())

  /// Links the Rx scheduler's disposable (disposing it at once when the handle was disposed first).
  func attach(_ disposable: any Disposable) {
    let isObject = type(of: disposable as Any) is AnyObject.Type
    let cancelled = state.withCriticalRegion { state -> Bool in
      if !state.cancelled {
        if isObject { state.object = disposable as AnyObject } else { state.value = disposable }
      }
      return state.cancelled
    }
    if cancelled { disposable.dispose() }
  }

  func cancelTimer(_ timer: ScheduledTimer) {
    let disposable = state.withCriticalRegion { state -> (any Disposable)? in
      defer { state = State(object: nil, value: nil, cancelled: true) }
      return state.value ?? (state.object as? any Disposable)
    }
    disposable?.dispose()
  }
}
