import AsyncSchedulers

/// The owner a ``TestScheduler``'s timers point back to, so that disposing a timer removes it from the
/// scheduler's heap, without the timer keeping the scheduler alive.
///
/// A timer's owner is a strong reference (an engine scheduler is kept alive by its pending timers, like
/// a queue with a pending `asyncAfter`). A test scheduler must not be: nothing drives a dropped one, so
/// its heap and the heap's timers (with everything their closures captured) would form a cycle and leak.
/// Every timer of one scheduler shares this one link; the scheduler holds it strongly, the link holds
/// the scheduler weakly.
final class TestSchedulerTimerOwner: TimerOwner, @unchecked Sendable {
  // Why @unchecked Sendable: `scheduler` is assigned once, in `TestScheduler.init`, before the link is
  // reachable from any other thread, and never changes afterwards (a weak reference's loads are atomic).
  weak var scheduler: TestScheduler?

  init() {}

  /// Removes `timer` from the scheduler's heap; does nothing once the scheduler is gone (its heap went
  /// with it).
  func cancelTimer(_ timer: ScheduledTimer) { scheduler?.cancelTimer(timer) }
}
