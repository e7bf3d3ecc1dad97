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
  // Why @unchecked Sendable: the class is non-final only so that timers can carry their extra fields
  // in a package subclass; its own state is in `state`, a Mutex.

  private enum Phase: UInt8 { case pending, finished, disposed }

  private struct State {
    var phase: Phase
    var body: (@Sendable () -> Void)?
  }

  private let state: Mutex<State>

  /// Creates the handle of a one-shot job. Only schedulers create these.
  package init(_ body: @escaping @Sendable () -> Void) {
    state = Mutex(State(phase: .pending, body: body))
  }

  private init(finished: Void) {
    state = Mutex(State(phase: .finished, body: nil))
  }

  /// A handle for work that has already run (an immediate scheduler returns it).
  public static let finished = ScheduledAction(finished: ())

  /// Whether the job was disposed, or (one-shot) has already run.
  public var isDisposed: Bool { state.withCriticalRegion { $0.phase != .pending } }

  /// Whether the body stays after a run (repeating timers, alarms).
  package var keepsBody: Bool { false }

  /// Cancels the job: it will not start (again). Never interrupts a running job.
  public func dispose() {
    let released: (@Sendable () -> Void)?? = state.withCriticalRegion { state in
      guard state.phase == .pending else { return nil }
      state.phase = .disposed
      defer { state.body = nil }
      return .some(state.body)
    }
    guard released != nil else { return }
    didDispose()
    // `released` (the closure and its captures) is freed here, outside every lock.
  }

  /// Called once, with no lock held, after the first effective `dispose()`.
  package func didDispose() {}

  /// Runs the job if it is still pending; a one-shot job is marked finished first and its closure
  /// released right after it returns. Called by schedulers only, with no lock held.
  @inline(__always)
  package final func run() {
    let keep = keepsBody
    let body: (@Sendable () -> Void)? = state.withCriticalRegion { state in
      guard state.phase == .pending else { return nil }
      if keep { return state.body }
      state.phase = .finished
      defer { state.body = nil }
      return state.body
    }
    body?()
  }
}

/// A timer: a ``ScheduledAction`` kept in its owner's timer heap. Its deadline and sequence number live
/// in the heap entry; only a repeating timer carries its grid, so a one-shot timer stays small.
package final class ScheduledTimer: ScheduledAction, @unchecked Sendable {
  // Why @unchecked Sendable: `heapIndex` is read and written only by the scheduler that owns this timer,
  // while it holds its own lock (which is also why its dynamic exclusivity checks are off: it is on the
  // hot path of every timer operation). The `let`s are Sendable.

  /// The scheduler whose timer structure holds this timer.
  package let owner: (any TimerOwner)?
  /// The grid of a repeating timer; `nil` for a one-shot timer.
  package let grid: RepeatGrid?
  private let reusable: Bool
  /// Position in the owner's timer heap, or -1 (owner's lock).
  @exclusivity(unchecked) package var heapIndex: Int = -1

  /// Creates a timer; `reusable` keeps the body after a run without repeating (a scheduler's alarm).
  package init(
    owner: (any TimerOwner)?, repeating grid: RepeatGrid? = nil, reusable: Bool = false,
    _ body: @escaping @Sendable () -> Void
  ) {
    self.owner = owner
    self.grid = grid
    self.reusable = reusable
    super.init(body)
  }

  package override var keepsBody: Bool { grid != nil || reusable }

  package override func didDispose() { owner?.cancelTimer(self) }
}

/// The deadlines of a repeating timer: `start + interval × k`.
package final class RepeatGrid: @unchecked Sendable {
  // Why @unchecked Sendable: `tick` is read and written only by the scheduler that owns the timer, under
  // its lock; the `let`s are Sendable.

  /// The first deadline.
  package let start: SchedulerInstant
  /// The distance between deadlines.
  package let interval: Duration
  /// Ticks fired so far (owner's lock).
  @exclusivity(unchecked) private var tick: Int64 = 0

  /// A grid starting at `start`, every `interval`.
  package init(start: SchedulerInstant, interval: Duration) {
    self.start = start
    self.interval = interval
  }

  /// The next deadline on the grid, skipping grid points already in the past at `now` (missed ticks are
  /// coalesced into the one being fired). Owner's lock.
  package func nextDeadline(after now: SchedulerInstant) -> SchedulerInstant {
    var next = tick + 1
    let behind = start.duration(to: now)
    if behind >= interval * next {
      next = Int64((behind / interval).rounded(.down)) + 1
    }
    tick = next
    return start.advanced(by: interval * next)
  }
}

/// A scheduler that keeps timers in its own structure and removes them when they are disposed.
package protocol TimerOwner: AnyObject, Sendable {
  /// Removes `timer` from the timer structure; called once, with no lock held, by `dispose()`.
  func cancelTimer(_ timer: ScheduledTimer)
}
