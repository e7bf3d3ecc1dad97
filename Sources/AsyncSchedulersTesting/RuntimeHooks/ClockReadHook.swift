#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The Swift concurrency library's own call to `clock_gettime`, redirected while at least one capturing
/// scope is active, so that `ContinuousClock.now` and `SuspendingClock.now` read in a scope's code
/// return the scope's virtual time (see ``VirtualClockReads``).
///
/// Both clocks read the time through the runtime's `swift_get_time`, which calls `clock_gettime`
/// through the library's procedure linkage table (see ``LibraryImportSlot``). Every other caller of
/// `clock_gettime` in the process (Dispatch, Foundation, this package's own timing, which uses
/// `DispatchTime`) is untouched; the library's calls from a thread no scope runs on reach the real
/// `clock_gettime` after one thread-local read.
///
/// Linux only: elsewhere ``isAvailable`` is `false`, and plain sleeps' virtual deadlines are recovered
/// from real-clock deadlines instead.
enum ClockReadHook {
  /// Whether the slot was found.
  static var isAvailable: Bool { slot.isAvailable }

  /// Whether the hook is installed now.
  static var isInstalled: Bool { slot.isRedirected }

  /// Redirects the library's clock reads until ``uninstall()``. Called under ``ActiveScopes``'
  /// installation lock.
  static func install() {
    #if os(Linux)
      let replacement: @convention(c) (clockid_t, UnsafeMutablePointer<timespec>?) -> Int32 = { clock, spec in
        guard let spec else { return -1 }
        if let nanoseconds = VirtualClockReads.nanoseconds(clock: clock) {
          spec.pointee = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
          return 0
        }
        return clock_gettime(clock, spec)
      }
      slot.redirect(to: unsafeBitCast(replacement, to: UInt.self))
    #endif
  }

  /// Puts back the real `clock_gettime`.
  static func uninstall() { slot.restore() }

  /// The slot, found once (after making the library resolve it: both clocks read the time once).
  private static let slot: LibraryImportSlot = {
    _ = ContinuousClock.now
    _ = SuspendingClock.now
    return LibraryImportSlot(importing: "clock_gettime")
  }()
}
