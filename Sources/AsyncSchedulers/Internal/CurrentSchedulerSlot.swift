/// The thread-specific "scheduler running this code" slot, set by schedulers around the jobs they run.
///
/// It holds an unretained pointer: a scheduler sets it only while it is running a job on this thread
/// (and is therefore alive), and restores the previous value afterwards.
package enum CurrentSchedulerSlot {
  private static let slot = ThreadSlot()

  /// The raw value of the slot on this thread.
  @inline(__always)
  package static var raw: UnsafeMutableRawPointer? { slot.raw }

  /// Sets the slot to `scheduler` and returns the previous value, to be restored with ``restore(_:)``.
  @inline(__always)
  static func enter(_ scheduler: AnyObject) -> UnsafeMutableRawPointer? { slot.enter(scheduler) }

  /// Restores the value returned by ``enter(_:)``.
  @inline(__always)
  static func restore(_ previous: UnsafeMutableRawPointer?) { slot.restore(previous) }

  /// Whether `scheduler` is the one running on this thread.
  @inline(__always)
  package static func isCurrent(_ scheduler: AnyObject) -> Bool {
    raw == Unmanaged.passUnretained(scheduler).toOpaque()
  }
}
