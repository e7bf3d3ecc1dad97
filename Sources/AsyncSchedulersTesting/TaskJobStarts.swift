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
/// A four-way set-associative table of fixed size (no allocation, no hashing per job): a task's entry
/// is evicted only when four other tasks whose addresses share its set have started jobs since its own
/// latest one (the oldest entry of a set goes first); a task without an entry falls back to the start
/// of the latest job, the narrower window.
final class TaskJobStarts: @unchecked Sendable {
  // Why @unchecked Sendable: the table is read and written only by the thread running a job of the
  // scheduler that owns it, and a scheduler runs one job at a time: its driving calls are exclusive
  // (a flag under its lock), its capturing scope's pump is the only driver during the scope, and a
  // main-actor job the pump hands to `DispatchQueue.main.sync` runs while the pump waits. Each hand-over
  // between threads goes through a lock or a Dispatch synchronization, which orders the accesses.
  private struct Entry {
    var address: UInt = 0
    var previous: UInt64 = 0
    var latest: UInt64 = 0
  }

  private static let sets = 256
  private static let ways = 4
  private var entries = [Entry](repeating: Entry(), count: TaskJobStarts.sets * TaskJobStarts.ways)
  private var latestJob: UInt64 = 0

  /// The first entry of the set of `address` (task objects are 16-byte aligned at least).
  @inline(__always)
  private static func set(_ address: UInt) -> Int {
    Int(truncatingIfNeeded: ((address >> 4) ^ (address >> 12)) & UInt(sets - 1)) * ways
  }

  /// Real time now, in monotonic nanoseconds (one clock read).
  @inline(__always)
  static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// Notes that the job at `address` (a task's, or `nil` for another kind of work) starts now.
  @inline(__always)
  func noteStart(ofJobAt address: UInt?) {
    let now = Self.now()
    latestJob = now
    guard let address else { return }
    let first = Self.set(address)
    entries.withUnsafeMutableBufferPointer { entries in
      var oldest = first
      for index in first..<first + Self.ways {
        if entries[index].address == address {
          entries[index].previous = entries[index].latest
          entries[index].latest = now
          return
        }
        if entries[index].latest < entries[oldest].latest { oldest = index }
      }
      entries[oldest] = Entry(address: address, previous: now, latest: now)
    }
  }

  /// How much real time has passed since the task at `address` can have computed a deadline it hands
  /// over now: since the start of its previous job, or of the latest job when the task is unknown.
  func elapsedSinceDeadlineComputation(byTaskAt address: UInt?) -> Duration {
    var start = latestJob
    if let address {
      let first = Self.set(address)
      for index in first..<first + Self.ways where entries[index].address == address {
        start = entries[index].previous
      }
    }
    let now = Self.now()
    return .nanoseconds(Int64(clamping: now >= start ? now - start : 0))
  }
}
