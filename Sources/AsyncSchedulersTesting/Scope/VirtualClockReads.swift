import AsyncSchedulers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `ContinuousClock.now` and `SuspendingClock.now` read in a capturing scope's code: the scope's
/// virtual time, in each clock's own domain, as Go's synctest fakes `time.Now` inside a bubble.
///
/// A read is virtual when it happens on the thread that runs the scope's work (its pump, where every
/// job of the scope's tasks runs, main-actor jobs included) while the scope is open: the value is the
/// clock's real reading when the scope began plus the virtual time elapsed since. So a deadline
/// computed as `ContinuousClock.now + d` is `d` after the virtual instant it was computed at, exactly,
/// and code that measures elapsed time sees virtual time. Reads anywhere else (other tests, code
/// outside the scope, a task of the scope that escaped it) are real.
package enum VirtualClockReads {
  /// The clocks' readings when a scope began, and the virtual instant it began at.
  package struct Bases: Sendable {
    /// `CLOCK_BOOTTIME` (the continuous clock's), in nanoseconds.
    var continuous: Int64
    /// `CLOCK_MONOTONIC` (the suspending clock's), in nanoseconds.
    var suspending: Int64
    /// The scheduler's virtual instant when the scope began (read by the scheduler's state machine in
    /// the step that begins the scope).
    var virtualStart = SchedulerInstant.zero

    /// The clocks' readings now, for a scope that begins.
    static func now() -> Bases {
      #if os(Linux)
        Bases(continuous: realNanoseconds(clockBoottime), suspending: realNanoseconds(clockMonotonic))
      #else
        Bases(continuous: 0, suspending: 0)
      #endif
    }
  }

  /// The open scope whose work the calling thread runs: a Dispatch block of the scope's (see
  /// ``ScopeWorkSlot``), or its pump or a driving call of its body, found by the thread's
  /// current-scheduler slot *address* among the active scopes: that slot is never dereferenced, because
  /// any scheduler's worker may hold it while that scheduler is being released, and clock reads come
  /// from every thread of the process while a scope runs.
  static func scopeOfThread() -> CaptureScope? {
    if let scope = ScopeWorkSlot.current { return scope }
    guard let raw = CurrentSchedulerSlot.raw else { return nil }
    return ActiveScopes.shared.activeScope(ofSchedulerAt: UInt(bitPattern: raw))
  }

  /// Whether reads of the calling code are virtual for `scheduler`'s scope.
  static func areVirtual(for scheduler: TestScheduler) -> Bool {
    guard ClockReadHook.isInstalled, CurrentSchedulerSlot.isCurrent(scheduler), let scope = scopeOfThread() else {
      return false
    }
    return scope.clockBases != nil
  }

  #if os(Linux)
    /// The virtual reading of `clock` for the calling code, or `nil` when its reads are real.
    static func nanoseconds(clock: clockid_t, in scope: CaptureScope? = scopeOfThread()) -> Int64? {
      guard clock == clockBoottime || clock == clockMonotonic, let scope, let bases = scope.clockBases else {
        return nil
      }
      // The bases never change while the scope runs; the instant is the scheduler's now.
      let now = scope.scheduler.now
      let elapsed = bases.virtualStart.duration(to: now)
      let (seconds, attoseconds) = elapsed.components
      let nanoseconds = seconds.multipliedReportingOverflow(by: 1_000_000_000)
      guard !nanoseconds.overflow else { return nil }
      let base = clock == clockBoottime ? bases.continuous : bases.suspending
      return base &+ nanoseconds.partialValue &+ attoseconds / 1_000_000_000
    }

    /// The scheduler and virtual instant of a timer the concurrency library hands to Dispatch
    /// (`dispatch_after_f`) from a scope's code: a plain sleep the runtime gave to the global executor (in
    /// a default actor's method, whose executor schedules nothing). Its deadline was read on the virtual
    /// clock, so it names a virtual instant; `nil` anywhere else, or for a wall-clock time.
    static func virtualDeadline(
      dispatchTime when: UInt64, in scope: CaptureScope? = scopeOfThread()
    ) -> (TestScheduler, SchedulerInstant)? {
      guard when != .max, let scope, let bases = scope.clockBases else { return nil }
      let scheduler = scope.scheduler
      // Dispatch's encoding: bit 63 alone marks the monotonic (continuous) clock, bits 63 and 62 the wall
      // clock, neither the uptime (suspending) clock.
      let continuous = when & (1 << 63) != 0
      guard !continuous || when & (1 << 62) == 0 else { return nil }
      let nanoseconds = Int64(clamping: when & ~(1 << 63))
      let since = Duration.nanoseconds(nanoseconds &- (continuous ? bases.continuous : bases.suspending))
      return (scheduler, bases.virtualStart.advanced(by: since))
    }

    /// A Dispatch time armed from a scope's code, moved from the scope's virtual clock to the real one
    /// (the same time left), or `nil` when it was not armed there (or is a wall-clock time).
    static func realDispatchTime(for when: UInt64, in scope: CaptureScope? = scopeOfThread()) -> UInt64? {
      #if os(Linux)
        guard when != .max else { return nil }
        let continuous = when & (1 << 63) != 0
        guard !continuous || when & (1 << 62) == 0 else { return nil }
        let clock = continuous ? clockBoottime : clockMonotonic
        // `nil` unless the calling thread runs an open scope's work.
        guard let virtualNow = nanoseconds(clock: clock, in: scope) else { return nil }
        let value = Int64(clamping: when & ~(1 << 63))
        let real = max(0, realNanoseconds(clock) &+ (value &- virtualNow))
        return continuous ? UInt64(real) | (1 << 63) : UInt64(real)
      #else
        return nil
      #endif
    }

    private static let clockBoottime = clockid_t(7)
    static let clockMonotonic = clockid_t(CLOCK_MONOTONIC)

    private static func realNanoseconds(_ clock: clockid_t) -> Int64 {
      var spec = timespec()
      _ = clock_gettime(clock, &spec)
      return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
  #endif
}
