import AsyncSchedulers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The thread-specific "RAC wrapper running this block" slot: which of several wrappers of one core
/// (``RACScheduler/init(core:name:)`` called twice for one scheduler) runs the current block, so that
/// ``RACScheduler/current()`` answers with it rather than with whichever wrapper registered last.
///
/// It holds an unretained pointer: a wrapper sets it only while it runs a block on this thread (and is
/// therefore alive), and restores the previous value afterwards.
enum RACRunningWrapper {
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let result = pthread_key_create(&key, nil)
    if result != 0 { fatalError("pthread_key_create failed (\(result))") }
    return key
  }()

  /// The wrapper running the current block on this thread, if it wraps `core`.
  static func wrapper(of core: AnyObject) -> RACScheduler? {
    guard let raw = pthread_getspecific(key) else { return nil }
    let wrapper = Unmanaged<RACScheduler>.fromOpaque(raw).takeUnretainedValue()
    return wrapper.core as AnyObject === core ? wrapper : nil
  }

  /// Runs `body` with `wrapper` as the running wrapper, restoring the previous one afterwards.
  static func with<T>(_ wrapper: RACScheduler, _ body: () throws -> T) rethrows -> T {
    let previous = pthread_getspecific(key)
    pthread_setspecific(key, Unmanaged.passUnretained(wrapper).toOpaque())
    defer { pthread_setspecific(key, previous) }
    return try body()
  }
}
