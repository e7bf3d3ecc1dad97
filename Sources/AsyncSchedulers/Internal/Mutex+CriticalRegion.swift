import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Mutex {
  /// `withLock`, made visible to ThreadSanitizer.
  ///
  /// On Linux, `Mutex`'s lock and unlock live in the toolchain's uninstrumented code (a futex), so
  /// ThreadSanitizer sees no ordering between two critical sections and reports every guarded access as
  /// a race. Under ThreadSanitizer this wrapper tells it what the mutex guarantees (acquire on entry,
  /// release on exit, keyed by the guarded value's address); otherwise it costs one predictable branch.
  ///
  /// Contended, it first retries the lock a few times without blocking: the critical sections it
  /// guards last tens of nanoseconds, while `Mutex` on Linux blocks in the kernel (a priority-
  /// inheritance futex) as soon as it finds the lock taken, which costs microseconds on both sides.
  @inlinable @inline(__always)
  package borrowing func withCriticalRegion<R>(_ body: (inout sending Value) throws -> sending R) rethrows -> sending R
  {
    guard let hooks = ThreadSanitizerHooks.shared else {
      for _ in 0..<contendedRetries {
        if let result = try withLockIfAvailable(body) { return result }
      }
      return try withLock(body)
    }
    // The mutex's own address keys the annotation; taking it does not touch the guarded value.
    let key = withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) }
    return try withLock { value in
      hooks.acquire(key)
      defer { hooks.release(key) }
      return try body(&value)
    }
  }
}

/// How many times ``Mutex/withCriticalRegion(_:)`` retries a taken lock before blocking.
@usableFromInline var contendedRetries: Int { 64 }

/// ThreadSanitizer's annotation entry points, when the process runs under it.
@usableFromInline struct ThreadSanitizerHooks: Sendable {
  @usableFromInline typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void
  @usableFromInline let acquire: Annotation
  @usableFromInline let release: Annotation

  /// The hooks, or `nil` when ThreadSanitizer is not loaded.
  @usableFromInline static let shared: ThreadSanitizerHooks? = {
    #if os(Linux) || os(Android)
      let handle = UnsafeMutableRawPointer(bitPattern: 0)  // RTLD_DEFAULT
    #else
      let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
    #endif
    guard let acquire = dlsym(handle, "__tsan_acquire"), let release = dlsym(handle, "__tsan_release") else {
      return nil
    }
    return ThreadSanitizerHooks(
      acquire: unsafeBitCast(acquire, to: Annotation.self), release: unsafeBitCast(release, to: Annotation.self))
  }()
}
