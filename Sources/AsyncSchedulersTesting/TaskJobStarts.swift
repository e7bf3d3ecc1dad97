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
///
/// A direct-mapped table of fixed size (no allocation per job): a task whose slot another task took
/// since falls back to the start of the latest job, the narrower window.
final class TaskJobStarts: Sendable {
  private struct Entry {
    var address: UInt = 0
    var previous: Int64 = 0
    var latest: Int64 = 0
  }

  private struct Table {
    var entries = [Entry](repeating: Entry(), count: TaskJobStarts.slots)
    var latestJob: Int64 = 0
  }

  private static let slots = 1_024

  private let table = Mutex(Table())

  @inline(__always)
  private static func slot(_ address: UInt) -> Int { Int(truncatingIfNeeded: (address >> 4) & UInt(slots - 1)) }

  /// Notes that the job at `address` (a task's, or another kind) starts now.
  @inline(__always)
  func noteStart(ofJobAt address: UInt?, at nanoseconds: Int64) {
    table.withLock { table in
      table.latestJob = nanoseconds
      guard let address else { return }
      let index = Self.slot(address)
      if table.entries[index].address == address {
        table.entries[index].previous = table.entries[index].latest
        table.entries[index].latest = nanoseconds
      } else {
        table.entries[index] = Entry(address: address, previous: nanoseconds, latest: nanoseconds)
      }
    }
  }

  /// The earliest real time at which the task at `address` can have computed a deadline it hands over
  /// now: the start of its previous job, or of the latest job when the task is unknown.
  func earliestDeadlineComputation(byTaskAt address: UInt?) -> Int64 {
    table.withLock { table in
      guard let address else { return table.latestJob }
      let entry = table.entries[Self.slot(address)]
      return entry.address == address ? entry.previous : table.latestJob
    }
  }
}
