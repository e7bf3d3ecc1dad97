#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One thread-specific word holding an unretained object pointer or a flag: the package's one per-thread
/// slot, behind "which scheduler runs this code" (``CurrentSchedulerSlot``), "which trampoline runs on
/// this thread" (``TrampolineScheduler``) and, in the testing module, "this thread holds the main queue".
///
/// Whoever sets it keeps the object alive while it is set and restores the previous value afterwards,
/// so it nests. (The main actor's queue is identified differently, by a Dispatch queue-specific key: on
/// Linux the main queue can be served by a thread other than the first, so it is a queue's identity,
/// not a thread's.)
package struct ThreadSlot: @unchecked Sendable {
  // Why @unchecked Sendable: the key is created once and only read afterwards; the values it holds are
  // per thread, so no two threads ever share one.
  private let key: pthread_key_t

  /// A new slot (one process-wide key; create slots as `static let`s).
  package init() {
    var key = pthread_key_t()
    let result = pthread_key_create(&key, nil)
    checkArgument(result == 0, "AsyncSchedulers could not create a thread-specific key (pthread_key_create: \(result))")
    self.key = key
  }

  /// The value on this thread (`nil` when none is set).
  @inline(__always)
  package var raw: UnsafeMutableRawPointer? { pthread_getspecific(key) }

  /// Sets the value on this thread to `object` (unretained) and returns the previous one, to give back to
  /// ``restore(_:)``.
  @inline(__always)
  package func enter(_ object: AnyObject) -> UnsafeMutableRawPointer? {
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passUnretained(object).toOpaque())
    return previous
  }

  /// Restores the value ``enter(_:)`` returned.
  @inline(__always)
  package func restore(_ previous: UnsafeMutableRawPointer?) { pthread_setspecific(key, previous) }

  /// The slot used as a per-thread flag: whether this thread set it (`false` at first).
  package var isSet: Bool {
    get { pthread_getspecific(key) != nil }
    nonmutating set { pthread_setspecific(key, newValue ? UnsafeRawPointer(bitPattern: 1) : nil) }
  }
}
