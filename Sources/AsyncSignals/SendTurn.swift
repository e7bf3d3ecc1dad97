import Dispatch

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a sender waits on while events sent before its own are delivered; the deliverer hands it the
/// turn by signalling it (and disposing the subscription wakes it too).
@usableFromInline final class SendTurn: Sendable {
  private let semaphore = DispatchSemaphore(value: 0)

  @usableFromInline init() {}

  /// Blocks the calling thread until ``signal()`` (for as long as the events ahead are delivered).
  @usableFromInline func wait() { semaphore.wait() }

  /// Wakes the waiting sender.
  @usableFromInline func signal() { semaphore.signal() }
}

/// A thread's identity, to tell a re-entrant send (from the deliverer's own handler) from another
/// thread's.
@usableFromInline struct SendingThread: Equatable, Sendable {
  @usableFromInline let id: UInt

  @inlinable init(id: UInt) { self.id = id }

  /// The calling thread.
  @inlinable static var current: SendingThread {
    #if canImport(Darwin)
      SendingThread(id: UInt(bitPattern: pthread_self()))
    #else
      SendingThread(id: UInt(pthread_self()))
    #endif
  }
}
