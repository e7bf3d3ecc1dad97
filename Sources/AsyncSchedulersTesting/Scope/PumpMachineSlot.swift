/// A capturing scope's pump machine (``CaptureScopeStateMachine``), held by the scope rather than by
/// the pump's thread, so that a pump that replaces a blocked one goes on where it left off.
final class PumpMachineSlot: @unchecked Sendable {
  // Why @unchecked Sendable: only the scope's current pump reads or changes `machine`, with no lock. A
  // pump touches it only between jobs; the watch takes a pump over only while that pump is inside a
  // job (after it published the job's token with a releasing store, which the watch's exchange
  // acquires), and a pump that lost its job's exchange returns without touching it again. So every
  // access happens-before the next pump's first one (through the exchange and the new thread's start).
  var machine: CaptureScopeStateMachine

  init(_ machine: CaptureScopeStateMachine) { self.machine = machine }
}
