import AsyncSchedulers
import Synchronization

/// The owner a ``TestScheduler``'s timers point back to, so that disposing a timer removes it from the
/// scheduler's heap, without the timer keeping the scheduler alive.
///
/// A timer's owner is a strong reference (an engine scheduler is kept alive by its pending timers, like
/// a queue with a pending `asyncAfter`). A test scheduler must not be: nothing drives a dropped one, so
/// its heap and the heap's timers (with everything their closures captured) would form a cycle and leak.
/// Every timer of one scheduler shares this one link; the scheduler holds it strongly, the link holds
/// the scheduler unretained, and the scheduler clears it (under the link's lock) when it deinitializes.
///
/// Not a `weak` reference: a weak reference gives the scheduler a side table, which sends every retain
/// and release of it down the runtime's slow path (measured: about 7% of the time of captured sleeping
/// tasks, benchmark row 7).
final class TestSchedulerTimerOwner: TimerOwner, Sendable {
  /// The scheduler while it lives; `nil` from the start of its deinitialization. Unretained: while a
  /// caller holds this lock with a non-nil value, the scheduler's deinitializer waits in ``detach()``
  /// before anything of it is destroyed, so the call inside the lock is safe without a retain.
  private let scheduler = Mutex<Unmanaged<TestScheduler>?>(nil)

  init() {}

  /// Links the scheduler (once, in its initializer).
  func attach(_ scheduler: TestScheduler) {
    let link = Unmanaged.passUnretained(scheduler)
    self.scheduler.withCriticalRegion { $0 = link }
  }

  /// Unlinks the scheduler (first thing in its deinitializer): later disposals do nothing.
  func detach() { scheduler.withCriticalRegion { $0 = nil } }

  /// Removes `timer` from the scheduler's heap; does nothing once the scheduler is gone (its heap went
  /// with it). Takes the scheduler's lock inside this link's (the only order the two are taken in).
  func cancelTimer(_ timer: ScheduledTimer) {
    scheduler.withCriticalRegion { link in
      link?._withUnsafeGuaranteedRef { $0.cancelTimer(timer) }
    }
  }
}
