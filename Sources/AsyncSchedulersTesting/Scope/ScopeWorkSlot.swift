import AsyncSchedulers

/// The capturing scope whose work the calling thread runs now: set by the scope's pump around each job
/// it runs and each timer it fires, and by the wrapper of each Dispatch block the scope's code handed
/// over (see `ScopeDispatch`), so Dispatch calls and clock reads made there are recognized as the
/// scope's. Outside those moments (the pump's own waits, every other thread) it is empty.
enum ScopeWorkSlot {
  private static let slot = ThreadSlot()

  /// The scope, if this thread runs its work now. Whoever set it keeps the scope alive while it is set.
  @inline(__always)
  static var current: CaptureScope? {
    slot.raw.map { Unmanaged<CaptureScope>.fromOpaque($0).takeUnretainedValue() }
  }

  /// Runs `body` as work of `scope` on this thread.
  @inline(__always)
  static func run<Result>(in scope: CaptureScope, _ body: () throws -> Result) rethrows -> Result {
    let previous = slot.enter(scope)
    defer { slot.restore(previous) }
    return try body()
  }
}
