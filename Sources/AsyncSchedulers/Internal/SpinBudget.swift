import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process-wide limit on workers that spin (linger after draining, or wait for an imminent timer)
/// instead of returning their thread: at most half the processors (at least one) spin at a time, so
/// spinning never takes every core from other work, and a spinning worker never holds up more than
/// that share of Dispatch's pool.
enum SpinBudget {
  private static let spinning = Atomic<Int>(0)

  /// How many workers may spin at once.
  static let limit: Int = {
    #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
      let processors = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    #else
      let processors = 2
    #endif
    return Swift.max(1, processors / 2)
  }()

  /// Whether a spin is likely to be granted (a hint: ``tryAcquire()`` decides).
  static var isAvailable: Bool { spinning.load(ordering: .relaxed) < limit }

  /// Takes a spinning slot if one is free.
  static func tryAcquire() -> Bool {
    var current = spinning.load(ordering: .relaxed)
    while current < limit {
      let (exchanged, original) = spinning.compareExchange(
        expected: current, desired: current + 1, ordering: .relaxed)
      if exchanged { return true }
      current = original
    }
    return false
  }

  /// Gives a spinning slot back.
  static func release() {
    spinning.wrappingSubtract(1, ordering: .relaxed)
  }
}
