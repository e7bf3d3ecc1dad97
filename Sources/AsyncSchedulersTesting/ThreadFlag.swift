#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A per-thread boolean (a pthread key): each thread reads and writes its own value, `false` at first.
final class ThreadFlag: Sendable {
  // Why Sendable without a lock: the key is created once in `init` and only read afterwards; each
  // thread's value is private to it.
  private let key: pthread_key_t

  init() {
    var key = pthread_key_t()
    let result = pthread_key_create(&key, nil)
    if result != 0 { fatalError("ThreadFlag: pthread_key_create failed (\(result))") }
    self.key = key
  }

  /// This thread's value.
  var isSet: Bool {
    get { pthread_getspecific(key) != nil }
    set { pthread_setspecific(key, newValue ? UnsafeRawPointer(bitPattern: 1) : nil) }
  }
}
