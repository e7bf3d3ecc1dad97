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
public final class ScheduledAction: Disposable, @unchecked Sendable {
  // Why @unchecked Sendable: `state` is a Mutex. The `package var` timer fields below (`deadline`,
  // `sequence`, `heapIndex`, `tick`) are read and written only by the scheduler that owns this action,
  // while it holds its own lock; nothing else touches them. That lock is also why their dynamic
  // exclusivity checks are switched off (they are on the hot path of every timer operation).

  private enum Phase: UInt8 { case pending, finished, disposed }

  private struct State {
    var phase: Phase
    var body: (@Sendable () -> Void)?
  }

  private let state: Mutex<State>

  /// The scheduler whose timer structure holds this action, if it is a timer.
  package let owner: (any TimerOwner)?
  /// The repeat interval; `nil` for one-shot work.
  package let interval: Duration?
  /// The first deadline of a timer; repeating deadlines are `start + interval × tick`.
  package let start: SchedulerInstant
  /// How late the timer may fire, as a hint to the platform timer.
  package let leeway: Duration
  /// Whether the body survives a run without being a repeating timer (a scheduler's alarm).
  private let reusable: Bool
  /// The next deadline (owner's lock).
  @exclusivity(unchecked) package var deadline: SchedulerInstant
  /// Tie-breaker among equal deadlines: the order of scheduling (owner's lock).
  @exclusivity(unchecked) package var sequence: UInt64 = 0
  /// Position in the owner's timer heap, or -1 (owner's lock).
  @exclusivity(unchecked) package var heapIndex: Int = -1
  /// Ticks fired so far by a repeating timer (owner's lock).
  @exclusivity(unchecked) package var tick: Int64 = 0

  /// Creates the handle of a job or timer. Only schedulers create these.
  package init(
    owner: (any TimerOwner)? = nil,
    deadline: SchedulerInstant = .zero,
    interval: Duration? = nil,
    leeway: Duration = .zero,
    reusable: Bool = false,
    _ body: @escaping @Sendable () -> Void
  ) {
    self.reusable = reusable
    self.owner = owner
    self.start = deadline
    self.deadline = deadline
    self.interval = interval
    self.leeway = leeway
    self.state = Mutex(State(phase: .pending, body: body))
  }

  private init(finished: Void) {
    reusable = false
    owner = nil
    interval = nil
    leeway = .zero
    start = .zero
    deadline = .zero
    state = Mutex(State(phase: .finished, body: nil))
  }

  /// A handle for work that has already run (an immediate scheduler returns it).
  public static let finished = ScheduledAction(finished: ())

  /// Whether the job was disposed, or (one-shot) has already run.
  public var isDisposed: Bool { state.withCriticalRegion { $0.phase != .pending } }

  /// Whether this is a repeating timer.
  package var isRepeating: Bool { interval != nil }

  /// Cancels the job: it will not start (again). Never interrupts a running job.
  public func dispose() {
    let released: (@Sendable () -> Void)?? = state.withCriticalRegion { state in
      guard state.phase == .pending else { return nil }
      state.phase = .disposed
      defer { state.body = nil }
      return .some(state.body)
    }
    guard released != nil else { return }
    owner?.cancelTimer(self)
    // `released` (the closure and its captures) is freed here, outside every lock.
  }

  /// Runs the job if it is still pending; a one-shot job is marked finished first and its closure
  /// released right after it returns. Called by schedulers only, with no lock held.
  @inline(__always)
  package func run() {
    let body: (@Sendable () -> Void)? = state.withCriticalRegion { state in
      guard state.phase == .pending else { return nil }
      if interval != nil || reusable { return state.body }
      state.phase = .finished
      defer { state.body = nil }
      return state.body
    }
    body?()
  }

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
  /// Removes `action` from the timer structure; called once, with no lock held, by `dispose()`.
  func cancelTimer(_ action: ScheduledAction)
}
