#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The Swift concurrency library's own call to `dispatch_after_f`, redirected while at least one
/// capturing scope is active, so that a plain sleep the runtime hands to the global executor from a
/// scope's code still wakes on the scope's virtual clock.
///
/// Swift 6.3 gives a sleep to the executor it finds for the sleeping code; in a default actor's method
/// called from a task with no executor preference that is the global executor, whose timers are
/// Dispatch's (`dispatch_after_f`, through the library's procedure linkage table, see
/// ``LibraryImportSlot``), and no runtime hook sees them. Such a timer armed on a scope's thread was
/// computed on the scope's virtual clock (see ``VirtualClockReads``): its wake-up job becomes a timer
/// of the scope's scheduler at the virtual instant it names. A sleep with a tolerance arms a Dispatch
/// timer source instead (`dispatch_source_set_timer`), whose handler the hook cannot run: its start is
/// moved from the virtual clock to the real one, so it fires after the time the sleep had left (real
/// time, as before clocks read virtual time), never after the virtual time the test has run ahead.
/// Every other call (other threads, the main queue, wall-clock times) goes on to Dispatch unchanged.
///
/// Linux only, like ``ClockReadHook``.
enum DispatchTimerHook {
  typealias Work = @convention(c) (UnsafeMutableRawPointer?) -> Void
  typealias DispatchAfter = @convention(c) (UInt64, OpaquePointer?, UnsafeMutableRawPointer?, Work?) -> Void
  typealias SetTimer = @convention(c) (OpaquePointer?, UInt64, UInt64, UInt64) -> Void

  /// Redirects the library's Dispatch timers until ``uninstall()``. Called under ``ActiveScopes``'
  /// installation lock.
  static func install() {
    #if os(Linux)
      let replacement: DispatchAfter = { when, queue, context, work in
        if let context, UInt(bitPattern: queue.map { UnsafeRawPointer($0) }) != DispatchTimerHook.mainQueue,
          let (scheduler, deadline) = VirtualClockReads.virtualDeadline(dispatchTime: when)
        {
          // The context is the wake-up job the runtime's `work` would run on the global executor.
          scheduler.scheduleSleep(unsafeBitCast(context, to: UnownedJob.self), at: deadline)
          return
        }
        unsafeBitCast(DispatchTimerHook.slot.realFunction, to: DispatchAfter.self)(when, queue, context, work)
      }
      slot.redirect(to: unsafeBitCast(replacement, to: UInt.self))
      let setTimer: SetTimer = { source, start, interval, leeway in
        let real = VirtualClockReads.realDispatchTime(for: start) ?? start
        unsafeBitCast(DispatchTimerHook.timerSlot.realFunction, to: SetTimer.self)(source, real, interval, leeway)
      }
      timerSlot.redirect(to: unsafeBitCast(setTimer, to: UInt.self))
    #endif
  }

  /// Puts back the real `dispatch_after_f`.
  static func uninstall() {
    slot.restore()
    timerSlot.restore()
  }

  private static let slot = LibraryImportSlot(importing: "dispatch_after_f")
  private static let timerSlot = LibraryImportSlot(importing: "dispatch_source_set_timer")

  /// The main queue (`_dispatch_main_q`): main-queue timers are left to Dispatch.
  static let mainQueue = UInt(bitPattern: RuntimeSymbols.address(of: "_dispatch_main_q"))
}
