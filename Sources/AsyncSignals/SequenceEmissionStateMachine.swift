import AsyncSchedulers

/// The state of a signal that sends a sequence's elements one scheduled job at a time
/// (`Signal(_:on:)`): which job is the latest, whether it ran inline (inside the `schedule` call that
/// queued it, on an immediate or inline scheduler), its handle, and whether the subscription was
/// disposed. Pure: each event returns the action the storage performs after releasing its lock.
///
/// A job that runs inline only marks itself, and the scheduling loop sends the next element instead,
/// so an immediate scheduler iterates without recursing (no stack growth, however long the sequence).
/// A job that runs on another thread while its `schedule` call has not returned yet sends the element
/// there, on the scheduler, as any other job.
package struct SequenceEmissionStateMachine {
  /// A machine before its first job.
  package init() {}

  /// Identifies a thread (compared only).
  package typealias Thread = UInt

  private var generation: UInt64 = 0
  /// The thread inside the `schedule` call of job `generation`, while it is inside it.
  private var schedulingThread: Thread?
  private var ranInline = false
  private var handle: ScheduledAction?
  package private(set) var isDisposed = false

  package enum WillSchedule: Equatable {
    /// Schedule the job with this generation.
    case schedule(UInt64)
    /// Disposed: schedule nothing.
    case stop
  }

  /// The emitter on `thread` is about to schedule the next job.
  package mutating func willSchedule(on thread: Thread) -> WillSchedule {
    guard !isDisposed else { return .stop }
    generation &+= 1
    schedulingThread = thread
    ranInline = false
    return .schedule(generation)
  }

  package enum Scheduled {
    /// Nothing to do: the job will run later (its handle is kept for disposal), or it is stale.
    case none
    /// The job ran inline: send the next element here.
    case emitHere
    /// Disposed meanwhile: dispose the handle just returned.
    case dispose(ScheduledAction)
  }

  /// The `schedule` call of job `job` returned `handle`.
  package mutating func scheduled(_ job: UInt64, handle: ScheduledAction) -> Scheduled {
    guard job == generation else { return .none }
    schedulingThread = nil
    if isDisposed { return .dispose(handle) }
    if ranInline {
      ranInline = false
      return .emitHere
    }
    self.handle = handle
    return .none
  }

  package enum JobRan: Equatable {
    /// Send the next element (this job is the emitter now).
    case emit
    /// The job ran inline: the scheduling loop sends the element.
    case markedInline
    /// Disposed: do nothing.
    case stop
  }

  /// Job `job` runs on `thread`.
  package mutating func jobRan(_ job: UInt64, on thread: Thread) -> JobRan {
    guard !isDisposed else { return .stop }
    if job == generation, let scheduling = schedulingThread, scheduling == thread {
      ranInline = true
      return .markedInline
    }
    handle = nil
    return .emit
  }

  /// The subscription is disposed; returns the pending job's handle to dispose, if any.
  package mutating func dispose() -> ScheduledAction? {
    isDisposed = true
    defer { handle = nil }
    return handle
  }
}
