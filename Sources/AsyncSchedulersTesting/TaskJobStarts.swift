import Dispatch

/// When each task's last two jobs started on a ``TestScheduler``, in real time (monotonic uptime
/// nanoseconds), so the duration of a plain `Task.sleep` can be recovered from its real-clock deadline
/// (see ``SleepDuration``).
///
/// A task reads `clock.now` for its deadline either in the job that hands the sleep to the scheduler or
/// in the one before it (`Clock.sleep(for:)` reads `now` where it is inlined, in the caller's
/// isolation, and only then hops to the nonisolated `sleep(until:)`), so the deadline was computed no
/// earlier than the start of the task's previous job. A task's job is the task itself (the runtime's
/// `AsyncTask` is a `Job`), so a job and the current task are matched by address; addresses are only
/// compared, never dereferenced.
///
/// Two generations of exact entries (no collisions between tasks): when the current generation holds
/// 4,096 tasks it becomes the previous one and a new one starts, so a task that ran a job within the
/// last 4,096 tasks' jobs is always found, and entries of finished tasks age out.
final class TaskJobStarts: @unchecked Sendable {
  // Why @unchecked Sendable: the table is read and written only by the thread running a job of the
  // scheduler that owns it, and a scheduler runs one job at a time: its driving calls are exclusive
  // (a flag under its lock), its capturing scope's pump is the only driver during the scope, and a
  // main-actor job the pump hands to `DispatchQueue.main.sync` runs while the pump waits. Each hand-over
  // between threads goes through a lock or a Dispatch synchronization, which orders the accesses.
  private struct Starts {
    var previous: UInt64
    var latest: UInt64
  }

  private static let generation = 4_096
  private var current: [UInt: Starts] = [:]
  private var older: [UInt: Starts] = [:]
  private var latestJob: UInt64 = 0

  /// Real time now, in monotonic nanoseconds (one clock read).
  @inline(__always)
  static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// Notes that the job at `address` (a task's, or `nil` for another kind of work) starts now.
  @inline(__always)
  func noteStart(ofJobAt address: UInt?) {
    let now = Self.now()
    latestJob = now
    guard let address else { return }
    if let known = current[address] ?? older[address] {
      current[address] = Starts(previous: known.latest, latest: now)
    } else {
      if current.count >= Self.generation {
        older = current
        current = [:]
        current.reserveCapacity(Self.generation)
      }
      current[address] = Starts(previous: now, latest: now)
    }
  }

  /// How much real time has passed since the task at `address` can have computed a deadline it hands
  /// over now: since the start of its previous job, or of the latest job when the task is unknown.
  func elapsedSinceDeadlineComputation(byTaskAt address: UInt?) -> Duration {
    var start = latestJob
    if let address, let known = current[address] ?? older[address] { start = known.previous }
    let now = Self.now()
    return .nanoseconds(Int64(clamping: now >= start ? now - start : 0))
  }
}
