import AsyncSchedulers
import Synchronization

/// The `DispatchSource` timers of capturing scopes' code, on their scopes' virtual clocks: what
/// ``DispatchQueueHook`` asks about timer sources (the other Dispatch rules are ``ScopeDispatch``'s).
///
/// - A timer source the scope's code makes (`DispatchSource.makeTimerSource`) is the scope's. Each
///   `schedule(deadline:repeating:leeway:)` its code makes with a `DispatchTime` deadline arms it on the
///   scope's clock: auto-advance treats each fire as a timer (the leeway is not needed: a virtual timer
///   fires at its deadline), and a repeating one fires every interval of virtual time.
/// - Each fire runs the event handler once on the source's queue, as Dispatch would: a main-queue
///   source's on the pump with the main queue held, in the scope's one FIFO; any other queue's in flight
///   (the clock waits until it has run). Dispatch's rules hold: nothing is delivered before `resume()` or
///   `activate()`, while suspended, or after `cancel()`; fires that come while suspended are delivered
///   once, on `resume()`; a new `schedule` replaces the previous one.
/// - Scheduled from code outside the scope, or on the wall clock (`wallDeadline:`), the source runs on
///   real time (the wall-clock use is reported). A source made outside the scope and scheduled inside
///   it is reported and runs on real time for the time it had left (see ``ScopeDispatch``).
/// - The registry keeps a scope's sources alive until they are cancelled, or until the scope ends when
///   they are not armed; an armed source outlives its scope with its timer (driving the scheduler later
///   fires it, handing the handler to its queue), as an `asyncAfter` does.
enum ScopeTimerSources {
  /// The registered sources, by address.
  private static let sources = Mutex<[UInt: ScopeTimerSource]>([:])
  /// How many sources are registered: the hooks' one-load fast path when none is.
  private static let count = Atomic<Int>(0)

  /// The registered source at `pointer`, if any.
  @inline(__always)
  static func source(_ pointer: OpaquePointer?) -> ScopeTimerSource? {
    guard count.load(ordering: .acquiring) > 0, let pointer else { return nil }
    let key = UInt(bitPattern: UnsafeRawPointer(pointer))
    return sources.withCriticalRegion { $0[key] }
  }

  /// `dispatch_source_create` of a timer source returned `source` for the scope's code: registers it.
  static func created(_ source: OpaquePointer?, queue: OpaquePointer?) {
    guard let source, let scope = ScopeDispatch.scopeOfCaller() else { return }
    let key = UInt(bitPattern: UnsafeRawPointer(source))
    DispatchQueueHook.retain(source)
    let entry = ScopeTimerSource(source: key, queue: queue, scope: scope)
    let replaced = sources.withCriticalRegion { sources -> ScopeTimerSource? in
      defer { sources[key] = entry }
      return sources[key]
    }
    if replaced == nil { count.add(1, ordering: .releasing) }
  }

  /// `dispatch_source_set_timer` on a registered source: armed on its scope's clock (returns `true`:
  /// the real source is left unarmed), or disarmed and left to Dispatch (`false`).
  static func schedule(_ entry: ScopeTimerSource, start: UInt64, interval: UInt64) -> Bool {
    guard start != .max, let scope = ScopeDispatch.scopeOfCaller(), scope === entry.scope else {
      entry.disarm()
      return false
    }
    guard let deadline = scope.virtualInstant(dispatchTime: start) else {
      entry.disarm()
      scope.recordOffClock(
        "a DispatchSource timer scheduled on the wall clock (wallDeadline:)",
        why: "a wall-clock deadline cannot be put on virtual time: it fires on real time. Schedule it with a "
          + "DispatchTime deadline (.now() + delay), which the scope's clock runs")
      return false
    }
    // Dispatch's encoding: "never" (all ones) or an interval too large for a signed count is a one-shot.
    let repeating = interval >= UInt64(Int64.max) ? nil : Duration.nanoseconds(Int64(interval))
    entry.arm(deadline: deadline, interval: repeating)
    return true
  }

  /// `dispatch_source_cancel` of a registered source: nothing more is delivered, its virtual timer is
  /// dropped, and the registry lets it go.
  static func cancelled(_ entry: ScopeTimerSource) {
    entry.cancel()
    remove(entry)
  }

  /// The scope ended: its sources that are not armed are let go (an armed one stays with its timer
  /// until it is cancelled or runs out).
  static func scopeEnded(_ scope: CaptureScope) {
    guard count.load(ordering: .acquiring) > 0 else { return }
    let ended = sources.withCriticalRegion { sources in
      sources.values.filter { $0.scope === scope || $0.scope == nil }.filter { !$0.isArmed }
    }
    for entry in ended { remove(entry) }
  }

  private static func remove(_ entry: ScopeTimerSource) {
    let removed = sources.withCriticalRegion { sources -> Bool in
      guard sources[entry.source] === entry else { return false }
      sources[entry.source] = nil
      return true
    }
    guard removed else { return }
    count.subtract(1, ordering: .releasing)
    DispatchQueueHook.release(OpaquePointer(bitPattern: entry.source))
  }
}
