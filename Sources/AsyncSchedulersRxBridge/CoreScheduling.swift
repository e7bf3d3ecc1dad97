import AsyncSchedulers
import Foundation
import Synchronization

/// Rx's scheduling operations on top of a core scheduler: what every core-backed Rx scheduler shares.
/// Immediate work is one ``RxScheduledItem`` handed to the core's FIFO (no closure around it when the
/// core takes jobs directly); timed work is a core timer; periodic work a core repeating timer.
///
/// Work goes to `target`: the core seen through the virtual-time stand-in seam (``StandInCore``), so a
/// capturing scope's code schedules on the scope's scheduler; `core` is the real core, given to native
/// code that asks for it.
@usableFromInline struct CoreScheduling: Sendable {
  /// The real core.
  let core: any Scheduler
  /// Where work is scheduled: the core, through the stand-in seam when it is a real-time scheduler.
  @usableFromInline let target: any Scheduler
  @usableFromInline let runnable: (any RunnableJobSubmitting)?
  let leeway: Duration

  init(core: any Scheduler, leeway: RxTimeInterval) {
    self.core = core
    self.target = StandInCore.wrapping(core)
    self.runnable = target as? any RunnableJobSubmitting
    self.leeway = max(leeway.rxDuration ?? .zero, .zero)
  }

  @inlinable func schedule<State>(_ state: State, action: @escaping (State) -> any Disposable)
    -> any Disposable
  {
    let item = RxStatefulItem(state, action)
    if runnable != nil {
      // Through the stored property, not a bound copy: the core is not retained per call (its
      // reference count is a cache line its worker touches too).
      runnable?.submit(runnable: item)
    } else {
      target.execute { item.runJob() }
    }
    return item
  }

  func scheduleRelative<State>(
    _ state: State, dueTime: RxTimeInterval, action: @escaping (State) -> any Disposable
  ) -> any Disposable {
    guard let delay = dueTime.rxDuration else { return Disposables.create() }
    let item = RxStatefulItem(state, action)
    item.attach(timer: target.schedule(after: max(delay, .zero), leeway: leeway) { item.runJob() })
    return item
  }

  func schedulePeriodic<State>(
    _ state: State, startAfter: RxTimeInterval, period: RxTimeInterval,
    action: @escaping (State) -> State
  ) -> any Disposable {
    let action = rxClosure(action)
    let interval = period.rxDuration
    if let interval {
      checkArgument(interval > .zero, "schedulePeriodic: period must be positive or .never (got \(period))")
    }
    guard let first = startAfter.rxDuration else { return Disposables.create() }
    guard let interval else {
      // `.never` as the period: one tick, as a Dispatch timer that never repeats.
      return scheduleRelative(state, dueTime: startAfter) { state in
        _ = action(state)
        return Disposables.create()
      }
    }
    // Ticks of one repeating timer never overlap, so the state is read and written around the action,
    // never while it runs under the lock.
    let current = PeriodicState(RxElement(state))
    return target.scheduleRepeating(
      startingAt: target.now.advanced(by: max(first, .zero)), every: interval, leeway: leeway
    ) {
      let updated = RxElement(action(current.value.withCriticalRegion { $0 }.value))
      current.value.withCriticalRegion { $0 = updated }
    }
  }
}

/// The state a periodic action threads from tick to tick.
private final class PeriodicState<State: Sendable>: Sendable {
  let value: Mutex<State>
  init(_ state: State) { value = Mutex(state) }
}
