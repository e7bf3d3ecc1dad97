import Synchronization

/// The handle of one job or timer scheduled through a scheduler's callback API; disposing it cancels
/// the job.
///
/// - Disposing before the job starts means it never runs, and its closure (with everything it
///   captured) is released at once, on the disposing thread; a pending timer also leaves the
///   scheduler's timer structure at once, not at its deadline.
/// - Disposing while the job runs does not interrupt it. A one-shot job's closure is released as soon
///   as it has run; afterwards ``isDisposed`` is `true` and disposing does nothing.
/// - A repeating timer keeps firing when its handle is dropped (the scheduler holds it), and stops
///   for good when the handle is disposed.
public class ScheduledAction: Disposable, @unchecked Sendable {
  // Why @unchecked Sendable: `body` is read or written only by the one thread that moved `phase` out of
  // `pending` (or, for a body that stays, into and out of `running`) with an atomic compare-and-swap;
  // the swap orders those accesses. The class is non-final only so that timers can add their fields.

  private enum Phase {
    static let pending: UInt8 = 0
    /// A body that stays (a repeating timer) is running; a `dispose()` meanwhile moves it to
    /// `disposed` and leaves releasing the body to the runner.
    static let running: UInt8 = 1
    static let finished: UInt8 = 2
    static let disposed: UInt8 = 3
    /// A body that stays is running, and a queued run of it was taken off the queue meanwhile (another
    /// worker of a concurrent scheduler dequeued it): the runner runs the body once more when it returns
    /// (the one catch-up run a serial scheduler gives), instead of that firing being lost.
    static let runningAgain: UInt8 = 4
  }

  private let phase: Atomic<UInt8>
  /// Whether the body stays after a run (repeating timers).
  let keepsBody: Bool
  @exclusivity(unchecked) private var body: (@Sendable () -> Void)?

  /// Creates the handle of a job. Only schedulers create these. `keepsBody` keeps the body after a run
  /// (a repeating timer runs it again).
  package init(keepsBody: Bool = false, _ body: @escaping @Sendable () -> Void) {
    phase = Atomic(Phase.pending)
    self.keepsBody = keepsBody
    self.body = body
  }

  private init(finished: Void) {
    phase = Atomic(Phase.finished)
    keepsBody = false
    body = nil
  }

  /// A handle for work that has already run (an immediate scheduler returns it).
  public static let finished = ScheduledAction(finished: ())

  /// Whether the job was disposed, or (one-shot) has already run.
  public var isDisposed: Bool {
    let current = phase.load(ordering: .relaxed)
    return current == Phase.finished || current == Phase.disposed
  }

  /// Cancels the job: it will not start (again). Never interrupts a running job.
  public func dispose() {
    var current = phase.load(ordering: .relaxed)
    while current == Phase.pending || current == Phase.running || current == Phase.runningAgain {
      let (exchanged, original) = phase.compareExchange(
        expected: current, desired: Phase.disposed, ordering: .acquiringAndReleasing)
      if exchanged {
        // From `pending` the body is ours to release (outside every lock, here); from `running`
        // the runner releases it when it returns.
        let released = current == Phase.pending ? takeBody() : nil
        didDispose()
        withExtendedLifetime(released) {}
        return
      }
      current = original
    }
  }

  /// Called once, with no lock held, after the first effective `dispose()`.
  func didDispose() {}

  /// Called when a queued run of a body that stays is taken off the queue, before it runs (or is
  /// skipped); a ``RepeatingTimer`` then lets its next firing queue a run again.
  func runDequeued() {}

  /// Runs the job if it is still pending; a one-shot job is marked finished first and its closure
  /// released right after it returns. A body that stays is skipped if it is already running.
  /// Called by schedulers only, with no lock held.
  @inline(__always)
  package final func run() {
    if !keepsBody {
      guard phase.compareExchange(expected: Phase.pending, desired: Phase.finished, ordering: .acquiring).exchanged
      else { return }
      takeBody()?()
      return
    }
    // A queued run of a repeating timer is starting (or being handed over): the next firing may queue one.
    runDequeued()
    guard claimRun() else { return }
    while true {
      body?()
      let (done, found) = phase.compareExchange(
        expected: Phase.running, desired: Phase.pending, ordering: .acquiringAndReleasing)
      if done { return }
      if found == Phase.runningAgain,
        phase.compareExchange(expected: Phase.runningAgain, desired: Phase.running, ordering: .acquiringAndReleasing)
          .exchanged
      {
        continue  // The catch-up run a firing during this run asked for.
      }
      // Disposed while running: the disposer left the body to us.
      withExtendedLifetime(takeBody()) {}
      return
    }
  }

  /// Takes the body that stays for a run: `true` when this caller runs it now; `false` when it is
  /// disposed, or already running (then the runner is asked for one more run, coalesced with any other
  /// such request).
  private func claimRun() -> Bool {
    var current = phase.load(ordering: .relaxed)
    while true {
      let desired: UInt8
      switch current {
      case Phase.pending: desired = Phase.running
      case Phase.running: desired = Phase.runningAgain
      default: return false
      }
      let (exchanged, original) = phase.compareExchange(
        expected: current, desired: desired, ordering: .acquiringAndReleasing)
      if exchanged { return desired == Phase.running }
      current = original
    }
  }

  @inline(__always)
  private func takeBody() -> (@Sendable () -> Void)? {
    defer { body = nil }
    return body
  }
}

/// A timer: a ``ScheduledAction`` kept in its owner's timer heap. Its deadline and sequence number live
/// in the heap entry; a one-shot timer is two words bigger than a plain handle (owner, heap index), and
/// only a ``RepeatingTimer`` carries a grid.
package class ScheduledTimer: ScheduledAction, @unchecked Sendable {
  // Why @unchecked Sendable: `heapIndex` is read and written only by the scheduler that owns this timer,
  // while it holds its own lock (which is also why its dynamic exclusivity checks are off: it is on the
  // hot path of every timer operation). `owner` is a `let`.

  /// The scheduler whose timer structure holds this timer (a ``TimerOwner``; stored as one word, and
  /// cast back only when the timer is disposed).
  private let owner: AnyObject?
  /// Position in the owner's timer heap, or -1 (owner's lock).
  @exclusivity(unchecked) final var heapIndex: Int = -1

  /// Creates a one-shot timer.
  package convenience init(owner: (any TimerOwner)?, _ body: @escaping @Sendable () -> Void) {
    self.init(owner: owner, keepsBody: false, body)
  }

  /// Creates a timer; with `keepsBody` its body stays after running (a ``RepeatingTimer``).
  init(owner: (any TimerOwner)?, keepsBody: Bool, _ body: @escaping @Sendable () -> Void) {
    self.owner = owner
    super.init(keepsBody: keepsBody, body)
  }

  /// The deadline after `now` at which the timer fires again, or `nil` for a one-shot timer. Advances a
  /// repeating timer's grid. Owner's lock.
  func nextDeadline(after now: SchedulerInstant) -> SchedulerInstant? { nil }

  /// The period of a repeating timer (for descriptions).
  var repeatInterval: Duration? { nil }

  final override func didDispose() { (owner as? any TimerOwner)?.cancelTimer(self) }

  /// Whether a firing of this timer should queue a run of its body: always for a one-shot timer; for a
  /// repeating one only when no run is queued already (see ``RepeatingTimer``). Owner's lock.
  func shouldQueueRun() -> Bool { true }
}

/// A repeating timer: fires on the grid `start + interval × k`.
package final class RepeatingTimer: ScheduledTimer, @unchecked Sendable {
  // Why @unchecked Sendable: `grid` is read and written only by the owner, under its lock.

  @exclusivity(unchecked) private var grid: RepeatGrid
  /// Whether a run is queued and has not started: firings meanwhile are coalesced into it, as a
  /// Dispatch timer coalesces the firings that come while its handler waits or runs.
  private let runQueued = Atomic<Bool>(false)

  /// Creates a repeating timer firing at `start + interval × k`.
  package init(
    owner: (any TimerOwner)?, start: SchedulerInstant, interval: Duration, _ body: @escaping @Sendable () -> Void
  ) {
    self.grid = RepeatGrid(start: start, interval: interval)
    super.init(owner: owner, keepsBody: true, body)
  }

  override func nextDeadline(after now: SchedulerInstant) -> SchedulerInstant? {
    grid.nextDeadline(after: now)
  }

  override var repeatInterval: Duration? { grid.interval }

  /// Queues a run only when none is queued: a scheduler busy past several periods (a long run of this
  /// timer, or other work ahead of it) gets one catch-up run, not one per missed period.
  override func shouldQueueRun() -> Bool {
    !runQueued.exchange(true, ordering: .acquiringAndReleasing)
  }

  override func runDequeued() { runQueued.store(false, ordering: .releasing) }
}

/// A scheduler that keeps timers in its own structure and removes them when they are disposed.
package protocol TimerOwner: AnyObject, Sendable {
  /// Removes `timer` from the timer structure; called once, with no lock held, by `dispose()`.
  func cancelTimer(_ timer: ScheduledTimer)
}
