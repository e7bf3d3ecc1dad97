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

/// A timer: a ``ScheduledAction`` with a deadline, kept in its owner's timer heap.
package final class ScheduledTimer: ScheduledAction, @unchecked Sendable {
  // Why @unchecked Sendable: the `var` fields below (`deadline`, `sequence`, `heapIndex`, `tick`) are
  // read and written only by the scheduler that owns this timer, while it holds its own lock; nothing
  // else touches them. That lock is also why their dynamic exclusivity checks are switched off (they
  // are on the hot path of every timer operation). The `let`s are Sendable.

  /// The scheduler whose timer structure holds this timer.
  package let owner: (any TimerOwner)?
  /// The repeat interval; `nil` for a one-shot timer.
  package let interval: Duration?
  /// The first deadline; repeating deadlines are `start + interval × tick`.
  package let start: SchedulerInstant
  private let reusable: Bool
  /// The next deadline (owner's lock).
  @exclusivity(unchecked) package var deadline: SchedulerInstant
  /// Tie-breaker among equal deadlines: the order of scheduling (owner's lock).
  @exclusivity(unchecked) package var sequence: UInt64 = 0
  /// Position in the owner's timer heap, or -1 (owner's lock).
  @exclusivity(unchecked) package var heapIndex: Int = -1
  /// Ticks fired so far by a repeating timer (owner's lock).
  @exclusivity(unchecked) package var tick: Int64 = 0

  /// Creates a timer; `reusable` keeps the body after a run without repeating (a scheduler's alarm).
  package init(
    owner: (any TimerOwner)?, deadline: SchedulerInstant = .zero, interval: Duration? = nil,
    reusable: Bool = false, _ body: @escaping @Sendable () -> Void
  ) {
    self.owner = owner
    self.start = deadline
    self.deadline = deadline
    self.interval = interval
    self.reusable = reusable
    super.init(body)
  }

  /// Whether this is a repeating timer.
  package var isRepeating: Bool { interval != nil }

  package override var keepsBody: Bool { interval != nil || reusable }

  package override func didDispose() { owner?.cancelTimer(self) }

  /// Moves a repeating timer to its next deadline on its grid `start + interval × k`, skipping grid
  /// points already in the past at `now` (missed ticks are coalesced into the one being fired).
  /// Owner's lock.
  package func advanceToNextTick(after now: SchedulerInstant) {
    guard let interval else { return }
    var next = tick + 1
    let behind = start.duration(to: now)
    if behind >= interval * next {
      next = Int64((behind / interval).rounded(.down)) + 1
    }
    tick = next
    deadline = start.advanced(by: interval * next)
  }
}

/// A scheduler that keeps timers in its own structure and removes them when they are disposed.
package protocol TimerOwner: AnyObject, Sendable {
  /// Removes `timer` from the timer structure; called once, with no lock held, by `dispose()`.
  func cancelTimer(_ timer: ScheduledTimer)
}
