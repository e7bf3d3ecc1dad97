import AsyncSchedulers
import Dispatch

/// When each task's last few jobs ran on a ``TestScheduler``, in real time (monotonic uptime
/// nanoseconds), with the virtual instant at each start, so the deadline of a plain `Task.sleep` can be
/// put back on the virtual timeline (see ``SleepDuration``).
///
/// A task reads `clock.now` for its deadline in the job that hands the sleep to the scheduler, or in
/// one a few jobs before it: `Clock.sleep(for:)` reads `now` where it is inlined, in the caller's
/// isolation, and only then hops to the nonisolated `sleep(until:)`; `let deadline = .now + d; await
/// …; sleep(until: deadline)` reads it an await earlier, and the sleep hops on its way to the
/// scheduler. So the real instant it read lies in one of a few short windows: the current job, from
/// its start to the hand-over, or an earlier job, from its start to its end; never in the gaps between
/// them, however much other work ran there. A task's job is the task itself (the runtime's `AsyncTask`
/// is a `Job`), so a job and the current task are matched by address; addresses are only compared,
/// never dereferenced.
///
/// A four-way set-associative table of fixed size, allocated when the first job is noted (no
/// allocation or hashing per job): a task's entry is evicted only when four other tasks whose
/// addresses share its set have started jobs since its own latest one (the oldest entry of a set goes
/// first).
package final class TaskJobStarts: @unchecked Sendable {
  // Why @unchecked Sendable: the table is read and written only by the thread running a job of the
  // scheduler that owns it, and a scheduler runs one job at a time: its driving calls are exclusive
  // (a flag under its lock), its capturing scope's pump is the only driver during the scope, and a
  // main-actor job the pump hands to `DispatchQueue.main.sync` runs while the pump waits. Each hand-over
  // between threads goes through a lock or a Dispatch synchronization, which orders the accesses.

  /// One job of a task: when it started and ended (real nanoseconds; `end` 0 while it runs), and the
  /// virtual instant when it started.
  package struct Job {
    package var start: UInt64 = 0
    package var end: UInt64 = 0
    package var virtualStart: SchedulerInstant = .zero

    package init(start: UInt64 = 0, end: UInt64 = 0, virtualStart: SchedulerInstant = .zero) {
      (self.start, self.end, self.virtualStart) = (start, end, virtualStart)
    }
  }

  /// How many jobs of a task are kept, the running one included.
  static let depth = 6

  private struct Entry {
    var address: UInt = 0
    /// The runtime's ID of the task: a task freed and another made at the same address is another
    /// entry, never an heir to the dead task's jobs.
    var taskID: UInt64 = 0
    /// The jobs, in a ring; `next` is where the next one goes, `count` how many are kept.
    var jobs = (Job(), Job(), Job(), Job(), Job(), Job())
    var next = 0
    var count = 0

    var latestIndex: Int { (next + TaskJobStarts.depth - 1) % TaskJobStarts.depth }
    var latestStart: UInt64 { count == 0 ? 0 : self[latestIndex].start }

    subscript(index: Int) -> Job {
      get { withUnsafeBytes(of: jobs) { $0.load(fromByteOffset: index * MemoryLayout<Job>.stride, as: Job.self) } }
      set {
        withUnsafeMutableBytes(of: &jobs) {
          $0.storeBytes(of: newValue, toByteOffset: index * MemoryLayout<Job>.stride, as: Job.self)
        }
      }
    }

    mutating func push(_ job: Job) {
      self[next] = job
      next = (next + 1) % TaskJobStarts.depth
      count = min(count + 1, TaskJobStarts.depth)
    }
  }

  private static let sets = 64
  private static let ways = 4
  private var entries: [Entry] = []

  /// The first entry of the set of `address` (task objects are 16-byte aligned at least).
  @inline(__always)
  private static func set(_ address: UInt) -> Int {
    Int(truncatingIfNeeded: ((address >> 4) ^ (address >> 10)) & UInt(sets - 1)) * ways
  }

  /// Real time now, in monotonic nanoseconds (one clock read).
  @inline(__always)
  static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

  /// Notes that the job of the task at `address` starts now, at the virtual instant `virtualNow`.
  @inline(__always)
  func noteStart(ofJobAt address: UInt, virtualNow: SchedulerInstant) {
    if entries.isEmpty { entries = [Entry](repeating: Entry(), count: Self.sets * Self.ways) }
    let job = Job(start: Self.now(), end: 0, virtualStart: virtualNow)
    let taskID = TaskIdentity.taskID(atAddress: address)
    let first = Self.set(address)
    entries.withUnsafeMutableBufferPointer { entries in
      var oldest = first
      for index in first..<first + Self.ways {
        if entries[index].address == address {
          if entries[index].taskID != taskID {
            entries[index] = Entry()
            entries[index].address = address
            entries[index].taskID = taskID
          }
          entries[index].push(job)
          return
        }
        if entries[index].latestStart < entries[oldest].latestStart { oldest = index }
      }
      var entry = Entry()
      entry.address = address
      entry.taskID = taskID
      entry.push(job)
      entries[oldest] = entry
    }
  }

  /// Notes that the job of the task at `address` that started last has ended (unless it already
  /// suspended the task, see ``noteSuspension(ofJobAt:)``: the task's own code ended there).
  @inline(__always)
  func noteEnd(ofJobAt address: UInt) {
    guard !entries.isEmpty else { return }
    let first = Self.set(address)
    entries.withUnsafeMutableBufferPointer { entries in
      for index in first..<first + Self.ways where entries[index].address == address {
        let latest = entries[index].latestIndex
        if entries[index][latest].end == 0 { entries[index][latest].end = Self.now() }
      }
    }
  }

  /// Notes that the running job of the task at `address` hands a sleep over `now`: the task suspends, so
  /// it reads no clock in this job after this instant (what the job still does is the runtime's), and
  /// the job's window ends here. Without it, a job that set up a view model and slept would stay open
  /// until the runtime finished suspending, and a later sleep could place its clock reading there.
  func noteSuspension(ofJobAt address: UInt, at now: UInt64 = TaskJobStarts.now()) {
    guard !entries.isEmpty else { return }
    let first = Self.set(address)
    entries.withUnsafeMutableBufferPointer { entries in
      for index in first..<first + Self.ways where entries[index].address == address {
        let latest = entries[index].latestIndex
        if entries[index][latest].end == 0 { entries[index][latest].end = now }
      }
    }
  }

  /// The current job of the task at `address` and the ended ones before it, latest first (`nil` when
  /// the task is unknown).
  func jobs(ofTaskAt address: UInt) -> (current: Job, earlier: [Job])? {
    guard !entries.isEmpty else { return nil }
    let taskID = TaskIdentity.taskID(atAddress: address)
    let first = Self.set(address)
    for index in first..<first + Self.ways
    where entries[index].address == address && entries[index].taskID == taskID {
      let entry = entries[index]
      var earlier: [Job] = []
      for back in 1..<entry.count {
        let job = entry[(entry.latestIndex + Self.depth - back) % Self.depth]
        if job.end != 0 { earlier.append(job) }
      }
      return (entry[entry.latestIndex], earlier)
    }
    return nil
  }
}
