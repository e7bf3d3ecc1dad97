import AsyncSchedulers
import Synchronization

/// A scope's side of the Dispatch rules (see ``ScopeDispatch``): its blocks in flight, its Dispatch
/// timers, its clock as Dispatch reads it.
extension CaptureScope {
  /// Whether Dispatch work of the scope is in flight.
  var hasDispatchWorkInFlight: Bool { dispatchInFlight.load(ordering: .sequentiallyConsistent) > 0 }

  /// Whether a Dispatch block of the scope is running now (not only waiting for its queue).
  var hasDispatchWorkRunning: Bool { dispatchRunning.load(ordering: .sequentiallyConsistent) > 0 }

  /// A Dispatch block of the scope's starts being in flight.
  func beginDispatchWork() { dispatchInFlight.add(1, ordering: .sequentiallyConsistent) }

  /// A Dispatch block of the scope's finished: when none is left in flight, the pump is woken (it may
  /// be waiting for it before it moves the clock).
  func endDispatchWork() {
    if dispatchInFlight.subtract(1, ordering: .sequentiallyConsistent).newValue == 0 { scheduler.wakePump() }
  }

  /// `handed`, made to run as the scope's work and to hold the clock from now until it has run.
  func inFlightBlock(_ handed: ScopeDispatch.HandedBlock) -> ScopeDispatch.Block {
    beginDispatchWork()
    return { [self] in
      dispatchRunning.add(1, ordering: .sequentiallyConsistent)
      ScopeWorkSlot.run(in: self) { handed.block() }
      dispatchRunning.subtract(1, ordering: .sequentiallyConsistent)
      endDispatchWork()
    }
  }

  /// Hands `handed` to `queue` (the real `dispatch_async`), in flight until it has run.
  func submitInFlight(_ handed: ScopeDispatch.HandedBlock, to queue: OpaquePointer?) {
    DispatchQueueHook.realAsync(queue, inFlightBlock(handed))
  }

  /// Adds a Dispatch timer of the scope's code at the virtual `deadline`: the timer (disposing it
  /// removes it from the clock), or `nil` once the scope ended.
  func addDispatchTimer(at deadline: SchedulerInstant, _ action: @escaping @Sendable () -> Void) -> ScheduledTimer? {
    scheduler.queueScopeTimer(scope: id, at: deadline, action)
  }

  /// Queues main-queue work of the scope's code in its FIFO; `false` once the scope ended.
  func queueMainQueueWork(_ work: @escaping @Sendable () -> Void) -> Bool {
    scheduler.queueScopeWork(scope: id, runnable: MainQueueWork(ScheduledAction(work)))
  }

  /// The scope's virtual uptime (`DispatchTime`'s clock) now, in nanoseconds.
  func virtualUptimeNanoseconds() -> Int64? {
    #if os(Linux)
      VirtualClockReads.nanoseconds(clock: VirtualClockReads.clockMonotonic, in: self)
    #else
      nil
    #endif
  }

  /// The virtual instant a Dispatch time armed by the scope's code names (`nil`: a wall-clock time).
  func virtualInstant(dispatchTime when: UInt64) -> SchedulerInstant? {
    #if os(Linux)
      VirtualClockReads.virtualDeadline(dispatchTime: when, in: self)?.1
    #else
      nil
    #endif
  }

  /// A Dispatch time armed by the scope's code moved to the real clock (the same time left).
  func realDispatchTime(for when: UInt64) -> UInt64? {
    #if os(Linux)
      VirtualClockReads.realDispatchTime(for: when, in: self)
    #else
      nil
    #endif
  }

  /// Reports at once, on the test that owns the scope, that the scope's code used a Dispatch API that
  /// cannot be put on the clock: never silent.
  func recordOffClock(_ what: String, why: String) {
    report("capturingAllTasks: the scope's code used \(what), which runs on real time: \(why).")
  }
}
