import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where one thread sleeps until another wakes it or a timeout passes, at the cost of one system call
/// per sleep: on Linux (x86_64, arm64) a futex word, elsewhere a `DispatchSemaphore`.
///
/// The owner reads the word (``snapshot()``) and bumps it (``bump()``) under its own lock, so a wake-up
/// decided after the sleeper looked is never lost: the sleeper's ``wait(seen:timeout:)`` returns at once
/// when the word moved past what it saw. A `DispatchSemaphore` wait with a deadline, used before, spent
/// about a seventh of the alarm thread's per-tick CPU converting times (`dispatch_time`, `sem_timedwait`'s
/// realtime deadline, `errno`) around the same single futex call.
final class WakeUpWord: @unchecked Sendable {
  // Why @unchecked Sendable: the word is read and written by user code only under the owner's lock
  // (``snapshot()`` and ``bump()`` say so); the kernel reads it atomically in the futex call.

  #if os(Linux) && (arch(x86_64) || arch(arm64))
    private let word: UnsafeMutablePointer<UInt32>
  #else
    private let semaphore = DispatchSemaphore(value: 0)
  #endif

  init() {
    #if os(Linux) && (arch(x86_64) || arch(arm64))
      word = .allocate(capacity: 1)
      word.initialize(to: 0)
    #endif
  }

  deinit {
    #if os(Linux) && (arch(x86_64) || arch(arm64))
      word.deallocate()
    #endif
  }

  /// The word's value, for a later ``wait(seen:timeout:)``. Call under the owner's lock.
  func snapshot() -> UInt32 {
    #if os(Linux) && (arch(x86_64) || arch(arm64))
      return word.pointee
    #else
      return 0
    #endif
  }

  /// Records a wake-up (call under the owner's lock), to deliver with ``wake()`` after releasing it.
  func bump() {
    #if os(Linux) && (arch(x86_64) || arch(arm64))
      word.pointee &+= 1
    #endif
  }

  /// Wakes the sleeper, if any (after ``bump()``, outside the owner's lock).
  func wake() {
    #if os(Linux) && (arch(x86_64) || arch(arm64))
      _ = Self.futex(word, Self.futexWakePrivate, 1, nil)
    #else
      semaphore.signal()
    #endif
  }

  /// Sleeps until woken after `seen`, or for `timeout` (nil: no timeout). May return early (a spurious
  /// wake-up, or a wake-up left from before): the caller looks again.
  func wait(seen: UInt32, timeout: Duration?) {
    #if os(Linux) && (arch(x86_64) || arch(arm64))
      guard let timeout else {
        _ = Self.futex(word, Self.futexWaitPrivate, seen, nil)
        return
      }
      let nanoseconds = Swift.max(timeout.saturatingNanoseconds, 0)
      var relative = timespec(
        tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
      _ = withUnsafePointer(to: &relative) { Self.futex(word, Self.futexWaitPrivate, seen, $0) }
    #else
      if let timeout {
        _ = semaphore.wait(timeout: .now() + .nanoseconds(Int(clamping: timeout.saturatingNanoseconds)))
      } else {
        semaphore.wait()
      }
    #endif
  }

  #if os(Linux) && (arch(x86_64) || arch(arm64))
    private static let futexWaitPrivate: Int32 = 0 | 128  // FUTEX_WAIT | FUTEX_PRIVATE_FLAG
    private static let futexWakePrivate: Int32 = 1 | 128  // FUTEX_WAKE | FUTEX_PRIVATE_FLAG

    private typealias Syscall =
      @convention(c) (Int, UnsafeMutablePointer<UInt32>, Int32, UInt32, UnsafePointer<timespec>?) -> Int

    /// `syscall(SYS_futex, …)`: `syscall` is variadic, so Swift cannot import it; it is reached by name
    /// and called with the futex arguments (integer registers only, as its variadic definition reads them).
    private static let syscallFunction: Syscall = {
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syscall") else {
        fatalError("AsyncSchedulers could not find the C library's syscall function for its timer thread")
      }
      return unsafeBitCast(symbol, to: Syscall.self)
    }()

    #if arch(x86_64)
      private static let sysFutex = 202
    #else
      private static let sysFutex = 98  // arm64
    #endif

    private static func futex(
      _ word: UnsafeMutablePointer<UInt32>, _ operation: Int32, _ value: UInt32, _ timeout: UnsafePointer<timespec>?
    ) -> Int {
      syscallFunction(sysFutex, word, operation, value, timeout)
    }
  #endif
}
