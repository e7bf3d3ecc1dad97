import Synchronization

/// When each task's last two jobs started on a ``TestScheduler``, in real time, so the duration of a
/// plain `Task.sleep` can be recovered from its real-clock deadline (see ``SleepDuration``).
///
/// A task reads `clock.now` for its deadline either in the job that hands the sleep to the scheduler or
/// in the one before it (`Clock.sleep(for:)` reads `now` where it is inlined, in the caller's
/// isolation, and only then hops to the nonisolated `sleep(until:)`), so the deadline was computed no
/// earlier than the start of the task's previous job. A task's job is the task itself (the runtime's
/// `AsyncTask` is a `Job`), so a job and the current task are matched by address; addresses are only
/// compared, never dereferenced.
final class TaskJobStarts: Sendable {
  private struct Starts {
    var previous: Int64
    var latest: Int64
  }

  /// Entries are dropped wholesale past this many tasks (a dead task's entry is harmless but uses
  /// memory); a sleep whose task lost its entry falls back to the current job's start.
  private static let limit = 4_096

  private let starts = Mutex<[UInt: Starts]>([:])
  private let latestJob = Atomic<Int64>(0)

  /// Notes that the job at `address` (a task's, or another kind) starts now.
  func noteStart(ofJobAt address: UInt?, at nanoseconds: Int64) {
    latestJob.store(nanoseconds, ordering: .relaxed)
    guard let address else { return }
    starts.withLock { starts in
      if let old = starts[address] {
        starts[address] = Starts(previous: old.latest, latest: nanoseconds)
      } else {
        if starts.count >= Self.limit { starts.removeAll(keepingCapacity: true) }
        starts[address] = Starts(previous: nanoseconds, latest: nanoseconds)
      }
    }
  }

  /// The earliest real time at which the task at `address` can have computed a deadline it hands over
  /// now: the start of its previous job, or of the latest job when the task is unknown.
  func earliestDeadlineComputation(byTaskAt address: UInt?) -> Int64 {
    if let address, let known = starts.withLock({ $0[address] }) { return known.previous }
    return latestJob.load(ordering: .relaxed)
  }
}
