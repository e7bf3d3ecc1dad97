import AsyncSchedulers
import Synchronization

/// A `DispatchSource` timer made by a capturing scope's code, run on the scope's virtual clock (the
/// rules are ``ScopeTimerSources``'): its Dispatch calls are events of its pure ``TimerSourceState``,
/// taken under a lock; the actions (adding or dropping a virtual timer, running the event handler) are
/// performed after the lock is released.
///
/// The real source is never armed while the scope runs it: each virtual fire runs a copy of the event
/// handler the scope's code set, on the source's queue (a main-queue source's on the pump with the main
/// queue held, in the scope's one FIFO; any other queue's in flight, holding the clock until it has
/// run).
final class ScopeTimerSource: Sendable {
  /// The event handler, boxed in a class: a block in a generic container is copied with the runtime's
  /// unknown-object witness, which on Linux takes a block for a Swift object (measured: a crash).
  final class Handler: Sendable {
    let handed: ScopeDispatch.HandedBlock
    init(_ handed: ScopeDispatch.HandedBlock) { self.handed = handed }
  }

  /// The real source (retained by ``ScopeTimerSources`` while registered).
  let source: UInt
  /// The scope whose code made the source; weakly: the scope holds the scheduler, whose timers hold
  /// this.
  weak let scope: CaptureScope?
  /// The queue the handler runs on (kept alive while a fire may still run on it).
  private let queue: ScopeDispatch.HeldQueue
  /// Whether that queue is the main queue.
  private let isMain: Bool

  private struct Storage {
    var machine = TimerSourceState<Handler>()
    /// The pending virtual timer of the current arming.
    var timer: ScheduledTimer?
  }

  private let storage = Mutex(Storage())

  init(source: UInt, queue: OpaquePointer?, scope: CaptureScope) {
    self.source = source
    self.scope = scope
    let target = queue ?? DispatchQueueHook.defaultGlobalQueue
    self.queue = ScopeDispatch.HeldQueue(target)
    isMain = DispatchQueueHook.isMainQueue(target)
  }

  /// Whether the source was cancelled.
  var isCancelled: Bool { storage.withCriticalRegion { $0.machine.isCancelled } }

  /// Whether the source is armed on the virtual clock.
  var isArmed: Bool { storage.withCriticalRegion { $0.machine.arming != nil } }

  // MARK: Events (from the hooked Dispatch calls)

  func setHandler(_ handler: Handler?) { storage.withCriticalRegion { $0.machine.setHandler(handler) } }

  /// Arms the source at the virtual `deadline`, repeating every `interval` (`nil`: once).
  func arm(deadline: SchedulerInstant, interval: Duration?) {
    let action = storage.withCriticalRegion {
      $0.machine.arm(deadline: Self.nanoseconds(deadline.offset), interval: interval.map(Self.nanoseconds))
    }
    perform(action)
  }

  /// The source was scheduled on real time: its virtual arming ends.
  func disarm() { perform(storage.withCriticalRegion { $0.machine.disarm() }) }

  func suspend() { storage.withCriticalRegion { $0.machine.suspend() } }

  func resume() { perform(storage.withCriticalRegion { $0.machine.resume() }) }

  func activate() { perform(storage.withCriticalRegion { $0.machine.activate() }) }

  func cancel() { perform(storage.withCriticalRegion { $0.machine.cancel() }) }

  private func fired(generation: UInt64) {
    perform(storage.withCriticalRegion { $0.machine.fired(generation: generation) })
  }

  // MARK: Actions (never under the lock)

  private func perform(_ action: TimerSourceState<Handler>.Action) {
    switch action {
    case .none:
      return
    case .addTimer(let deadline, let generation):
      addTimer(at: deadline, generation: generation)
    case .dropTimer:
      storage.withCriticalRegion { $0.timer.take() }?.dispose()
    case .deliver(let handler):
      deliver(handler)
    case .deliverAndAddTimer(let handler, let deadline, let generation):
      deliver(handler)
      addTimer(at: deadline, generation: generation)
    }
  }

  private func addTimer(at deadline: Int64, generation: UInt64) {
    let instant = SchedulerInstant(offset: .nanoseconds(deadline))
    let timer = scope?.addDispatchTimer(at: instant) { [self] in fired(generation: generation) }
    // Another event may have re-armed, disarmed or cancelled meanwhile: keep the timer only if its
    // arming is still the current one.
    let dropped = storage.withCriticalRegion { storage -> ScheduledTimer? in
      guard storage.machine.arming?.generation == generation else { return timer }
      defer { storage.timer = timer }
      return storage.timer === timer ? nil : storage.timer
    }
    dropped?.dispose()
  }

  /// Runs the event handler once on the source's queue, unless the source is cancelled by then.
  private func deliver(_ handler: Handler) {
    let run: @Sendable () -> Void = { [self] in
      if !isCancelled { handler.handed.block() }
    }
    if let scope, scope.isOpen {
      if isMain {
        if scope.queueMainQueueWork({ MainQueueExclusion.run(run) }) { return }
      } else {
        scope.submitInFlight(ScopeDispatch.HandedBlock(block: run), to: queue.queue)
        return
      }
    }
    // Fired by a driving call after the scope ended: on its queue, held by no scope.
    DispatchQueueHook.realAsync(queue.queue, run)
  }

  /// `duration` in nanoseconds, clamped to `Int64`.
  private static func nanoseconds(_ duration: Duration) -> Int64 {
    let (seconds, attoseconds) = duration.components
    let whole = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !whole.overflow else { return seconds < 0 ? .min : .max }
    let sum = whole.partialValue.addingReportingOverflow(attoseconds / 1_000_000_000)
    return sum.overflow ? (seconds < 0 ? .min : .max) : sum.partialValue
  }
}
