import AsyncSchedulers
import Synchronization

/// The rules for Dispatch work handed over by a capturing scope's code (what ``DispatchQueueHook``
/// asks): Go's synctest fakes every timer created in a bubble; here, every Dispatch timer the scope's
/// code arms is on the scope's virtual clock, and every block it hands to a queue holds the clock until
/// it has run.
///
/// - `DispatchTime.now()` reads the scope's virtual uptime, so `.now() + d` is `d` after the current
///   virtual instant.
/// - `asyncAfter` (any queue, with or without a `DispatchWorkItem`) becomes a timer of the scope's
///   scheduler at its virtual deadline: auto-advance moves the clock to it like any other timer. When
///   it fires, a main-queue block runs on the pump with the main queue held, in the scope's one FIFO; a
///   block for any other queue is handed to its queue and is in flight until it has run. A cancelled
///   work item's block does nothing when its time comes, as on Dispatch.
/// - `async` on the main queue joins the scope's FIFO (it runs on the pump with the main queue held);
///   `async` on any other queue, and `DispatchGroup`'s `async`, run on their queue at once and are in
///   flight until they have run. While any block is in flight, auto-advance does not move the clock; a
///   block still running after the stall timeout, or not started after twice that (its queue busy or
///   suspended), is reported, and the clock moves on.
/// - A group's `notify` block holds the clock while it runs (not while the group waits: its members may
///   wait for timers).
/// - `DispatchSource` timers the scope's code makes are on the clock (see ``ScopeTimerSources``).
/// - What cannot be put on the clock is reported, never silent: a wall-clock `asyncAfter`
///   (`DispatchWallTime`) runs on real time; a `DispatchSource` timer made outside the scope and
///   scheduled inside it runs on real time for the time it had left.
///
/// Blocks handed over by Dispatch blocks of the scope (a retry scheduled from a completion handler) are
/// the scope's too. The package's own Dispatch machinery (`PackageDispatch`) is never touched.
enum ScopeDispatch {
  typealias Block = DispatchQueueHook.Block

  /// A Dispatch block crossing threads: Dispatch runs blocks on other threads by contract.
  struct HandedBlock: @unchecked Sendable {
    // Why @unchecked Sendable: a block handed to Dispatch is run on another thread by Dispatch's own
    // contract; this wrapper only carries it to the thread that runs it, once.
    let block: Block
  }

  /// A Dispatch queue kept alive while a timer of the scope's code may still hand it a block.
  final class HeldQueue: @unchecked Sendable {
    // Why @unchecked Sendable: the pointer is immutable and the queue it names is retained until
    // deinit; Dispatch queues are thread-safe.
    private let bits: UInt

    init(_ queue: OpaquePointer?) {
      bits = UInt(bitPattern: queue.map { UnsafeRawPointer($0) })
      DispatchQueueHook.retain(queue)
    }

    var queue: OpaquePointer? { OpaquePointer(bitPattern: bits) }

    deinit { DispatchQueueHook.release(queue) }
  }

  /// The open scope whose code makes the calling Dispatch call, if any.
  @inline(__always)
  static func scopeOfCaller() -> CaptureScope? {
    guard let scope = ScopeWorkSlot.current, !PackageDispatch.isSubmitting, scope.isOpen else { return nil }
    return scope
  }

  /// `dispatch_time(DISPATCH_TIME_NOW, delta)` in the scope's code: its virtual uptime plus `delta`
  /// (`nil`: a real reading).
  static func uptimeNow(plus delta: Int64) -> UInt64? {
    guard let scope = scopeOfCaller(), let now = scope.virtualUptimeNanoseconds() else { return nil }
    let sum = now.addingReportingOverflow(delta)
    if sum.overflow { return delta > 0 ? UInt64(Int64.max) : 1 }
    // 0 would mean "now" to Dispatch: the earliest time is 1.
    return UInt64(max(sum.partialValue, 1))
  }

  /// `dispatch_after` in the scope's code: put on the scope's clock (returns `true`), or left to
  /// Dispatch (`false`: not the scope's code, or "never").
  static func after(_ when: UInt64, queue: OpaquePointer?, _ block: @escaping Block) -> Bool {
    guard when != .max, let scope = scopeOfCaller() else { return false }
    guard let deadline = scope.virtualInstant(dispatchTime: when) else {
      scope.recordOffClock(
        "an asyncAfter with a wall-clock deadline (DispatchWallTime)",
        why: "a wall-clock deadline cannot be put on virtual time: it fires on real time. Use a DispatchTime "
          + "deadline (.now() + delay), which the scope's clock runs")
      return false
    }
    let handed = HandedBlock(block: block)
    let main = DispatchQueueHook.isMainQueue(queue)
    // The timer holds its queue, as `dispatch_after` does, until its action is released (fired, or
    // dropped with a scheduler nothing drives any more).
    let held = HeldQueue(queue)
    // The scope weakly: the timer lives in the scheduler, which the scope holds (no cycle).
    let timer = scope.addDispatchTimer(at: deadline) { [weak scope] in
      if main {
        MainQueueExclusion.run { handed.block() }
      } else if let scope {
        scope.submitInFlight(handed, to: held.queue)
      } else {
        // Fired by a driving call after the scope ended: on its queue, held by no scope.
        DispatchQueueHook.realAsync(held.queue, handed.block)
      }
    }
    return timer != nil
  }

  /// `dispatch_async` in the scope's code: a main-queue block joins the scope's FIFO (returns `true`);
  /// a block for another queue goes to it in flight (returns `true`); `false` for code that is not the
  /// scope's.
  static func async(queue: OpaquePointer?, _ block: @escaping Block) -> Bool {
    guard let scope = scopeOfCaller() else { return false }
    let handed = HandedBlock(block: block)
    if DispatchQueueHook.isMainQueue(queue) {
      return scope.queueMainQueueWork { MainQueueExclusion.run { handed.block() } }
    }
    scope.submitInFlight(handed, to: queue)
    return true
  }

  /// `dispatch_group_async` in the scope's code: the block to submit instead (it holds the clock until
  /// it has run), or `nil` to submit the original.
  static func groupAsync(queue: OpaquePointer?, _ block: @escaping Block) -> Block? {
    guard let scope = scopeOfCaller() else { return nil }
    return scope.inFlightBlock(HandedBlock(block: block))
  }

  /// `dispatch_group_notify` in the scope's code: the block to register instead (the scope's work while
  /// it runs, holding the clock from when it starts), or `nil` to register the original.
  static func groupNotify(queue: OpaquePointer?, _ block: @escaping Block) -> Block? {
    guard let scope = scopeOfCaller() else { return nil }
    let handed = HandedBlock(block: block)
    return { [scope] in
      scope.beginDispatchWork()
      ScopeWorkSlot.run(in: scope) { handed.block() }
      scope.endDispatchWork()
    }
  }

  /// `dispatch_source_set_timer` in the scope's code on a source made outside the scope: the start moved
  /// from the virtual clock to the real one (the same time left), and the use reported; `nil` for code
  /// that is not the scope's.
  static func sourceTimerStart(_ start: UInt64) -> UInt64? {
    guard let scope = scopeOfCaller(), let real = scope.realDispatchTime(for: start) else { return nil }
    scope.recordOffClock(
      "a DispatchSource timer made outside the scope",
      why: "a timer source is put on virtual time when the scope's code makes it; this one was made before "
        + "the scope began, so it fires on real time, for the time it had left. Make the source inside the "
        + "scope (DispatchSource.makeTimerSource), or use the scheduler's timers")
    return real
  }
}
