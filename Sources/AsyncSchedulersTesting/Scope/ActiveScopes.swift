import AsyncSchedulers
import Synchronization

/// The capturing scopes running in the process, and the tasks that belong to each: the rules the
/// runtime hooks apply to every global job and every question about the main actor while any scope
/// runs.
///
/// A task belongs to a scope when it is the scope's body, or when it was created since the scope began
/// and one of its jobs was enqueued by code the scope runs (its pump, a driving call of its body, a
/// task carrying its ``CaptureMarker``). From then on the task is recognized by its *identity* (the
/// runtime's task ID, unique in the process and never reused), whoever enqueues its next job: a
/// continuation resumed by a Dispatch callback, an `AsyncStream` fed from another thread, a cancelling
/// thread. So its jobs always run on the scope's scheduler, at the current virtual instant, one at a
/// time. A task that existed before the scope (the test runner's, another test's) stays outside it,
/// even when the scope's code resumes it.
///
/// Scopes run in parallel: each sees only its own tasks. The hooks are installed when the first scope
/// starts and removed when the last ends. Every global job of the process passes ``route(_:)`` while
/// any scope runs: the task map is split in shards, each behind its own lock, and a job that is no
/// scope's takes one shard's lock once.
final class ActiveScopes: Sendable {
  /// The scopes of the process.
  static let shared = ActiveScopes()

  /// The active scopes, with their schedulers' addresses: found by identifier (for code that carries a
  /// marker) or by address (for main-actor jobs and clock reads) in a short list, a few scopes even when
  /// tests run in parallel, searched faster than a dictionary hashes.
  private let records = Mutex<[(scope: CaptureScope, address: UInt)]>([])
  /// The scope each task belongs to, by task ID, split by the ID's low bits.
  private let shards: [TaskShard] = (0..<64).map { _ in TaskShard() }
  /// How many scopes are active; the hooks are installed while it is above zero.
  private let installations = Mutex(0)

  private func shard(_ task: UInt64) -> TaskShard { shards[Int(truncatingIfNeeded: task & 63)] }

  /// Starts `scope`, with the calling task (the scope's body) as its first task, installing the hooks
  /// if it is the first active scope.
  func begin(_ scope: CaptureScope) {
    records.withCriticalRegion { $0.append((scope, Self.address(of: scope.scheduler))) }
    let body = TaskIdentity.currentTaskID()
    if body != 0 { adopt(body, into: scope) }
    installations.withCriticalRegion { count in
      count += 1
      if count == 1 {
        RuntimeHooks.install()
        VirtualTimeStandIn.install { ActiveScopes.shared.standIn(for: $0) }
      }
    }
  }

  /// Ends `scope`: its tasks are no longer recognized, and the hooks are removed if it was the last.
  func end(_ scope: CaptureScope) {
    installations.withCriticalRegion { count in
      count -= 1
      if count == 0 {
        RuntimeHooks.uninstall()
        VirtualTimeStandIn.remove()
      }
    }
    let record = records.withCriticalRegion { records -> CaptureScope? in
      guard let index = records.firstIndex(where: { $0.scope === scope }) else { return nil }
      return records.remove(at: index).scope
    }
    guard let record else { return }
    for task in record.close() {
      shard(task).map.withCriticalRegion { map in
        if map[SequentialKey(task)] === record { map[SequentialKey(task)] = nil }
      }
    }
  }

  /// The scope of the calling code: the one whose scheduler runs it on this thread, or the one its
  /// task's marker names; `nil` for code outside every scope.
  func scopeOfCallingCode() -> CaptureScope? { codeScope()?.record }

  /// How one global job is routed.
  enum Route {
    /// To this scope's scheduler; `escaped` when a task of the scope hands it over while running
    /// outside the scope (the scope records it).
    case scope(CaptureScope, escaped: Bool)
    /// On to the runtime's executor: the job is no scope's.
    case elsewhere
  }

  /// Routes a global job (or a main-actor job of a scope): to the scope its task belongs to, whoever
  /// enqueues it; else, for a task
  /// created since the scope began (or a job that is no task's), to the scope of the code enqueuing it,
  /// and the task joins that scope. A task that existed before (the test runner's, another test's)
  /// resumed by the scope's code is not the scope's: it goes on elsewhere.
  func route(_ job: UnownedJob) -> Route {
    let task = TaskIdentity.taskID(of: job)
    if task != 0, let record = shard(task).map.withCriticalRegion({ $0[SequentialKey(task)] }), record.isOpen {
      return .scope(record, escaped: isResumedOffTheClock(in: record))
    }
    guard let (record, escaped) = codeScope() else { return .elsewhere }
    if task == 0 { return .scope(record, escaped: escaped) }
    guard task >= record.firstTask else { return .elsewhere }
    adopt(task, into: record)
    return .scope(record, escaped: escaped)
  }

  /// Whether a job of a task of `record` is being enqueued by a task that ran off the scope's clock:
  /// a marked task running elsewhere, or a task created since the scope began that is no scope's. The
  /// second is how a plain sleep that went to the global executor's real timer wakes (one the runtime
  /// could not put on a scheduling executor, where ``DispatchTimerHook`` is not available: Darwin; its
  /// wake-up is a small task of the runtime's). Real callbacks resume from threads with no task, and the
  /// test runner's tasks are older than the scope: neither counts.
  private func isResumedOffTheClock(in record: CaptureScope) -> Bool {
    // The common case first, without a cast or a lock: the scope's own scheduler runs the caller.
    if let raw = CurrentSchedulerSlot.raw, raw == Unmanaged.passUnretained(record.scheduler).toOpaque() {
      return false
    }
    if let (_, escaped) = codeScope() { return escaped }
    let current = TaskIdentity.currentTaskID()
    guard current != 0, current >= record.firstTask else { return false }
    return shard(current).map.withCriticalRegion { $0[SequentialKey(current)] } == nil
  }

  /// The scope of the calling code, and whether that code runs outside the scope (a marked task
  /// running elsewhere).
  private func codeScope() -> (record: CaptureScope, escaped: Bool)? {
    // By the slot's address: the slot is not dereferenced (another scheduler's worker may hold it while
    // that scheduler is being released).
    if let raw = CurrentSchedulerSlot.raw, let record = activeScope(ofSchedulerAt: UInt(bitPattern: raw)) {
      return (record, false)
    }
    let marker = CaptureMarker.scope
    guard marker != 0,
      let record = records.withCriticalRegion({ records in records.first { $0.scope.id == marker }?.scope })
    else { return nil }
    return (record, true)
  }

  /// Makes `task` one of `record`'s tasks (unless the scope has ended meanwhile).
  private func adopt(_ task: UInt64, into record: CaptureScope) {
    shard(task).map.withCriticalRegion { $0[SequentialKey(task)] = record }
    if !record.add(task) {
      shard(task).map.withCriticalRegion { map in
        if map[SequentialKey(task)] === record { map[SequentialKey(task)] = nil }
      }
    }
  }

  /// What stands in for a real scheduler of `role` that the calling code names directly: the scheduler
  /// of the scope the code belongs to (its task is one of the scope's, or the scope's scheduler runs it
  /// on this thread), or `nil` outside every scope. See `VirtualTimeStandIn`.
  func standIn(for role: VirtualTimeStandIn.Role) -> (any Scheduler)? {
    guard let record = scopeOfCallingTask() else { return nil }
    switch role {
    case .background: return record.scheduler
    case .mainActor(let inline):
      return TestSchedulerMainStandIn(scheduler: record.scheduler, runsInlineWhenIdle: inline)
    }
  }

  /// The open scope whose task runs the calling code, or whose scheduler runs it on this thread.
  private func scopeOfCallingTask() -> CaptureScope? {
    let current = TaskIdentity.currentTaskID()
    if current != 0, let record = shard(current).map.withCriticalRegion({ $0[SequentialKey(current)] }), record.isOpen {
      return record
    }
    guard let (record, escaped) = codeScope(), !escaped, record.isOpen else { return nil }
    return record
  }

  /// The active scope of the scheduler at `address` (compared, never dereferenced), if one runs.
  func activeScope(ofSchedulerAt address: UInt) -> CaptureScope? {
    records.withCriticalRegion { records in records.first { $0.address == address }?.scope }
  }

  /// Whether a main-actor job belongs to the active scope of `scheduler`: its task is one of the
  /// scope's (compared under the shard's lock, retaining nothing that could be released last here), or
  /// the scope's own code enqueues it for a task created since the scope began (the task joins it).
  func mainActorJob(_ job: UnownedJob, belongsTo scheduler: TestScheduler) -> Bool {
    let task = TaskIdentity.taskID(of: job)
    guard task != 0 else { return false }
    let known = shard(task).map.withCriticalRegion { map -> Bool? in
      guard let record = map[SequentialKey(task)] else { return nil }
      return record.scheduler === scheduler && record.isOpen
    }
    if let known { return known }
    // Only the scope's own code adopts a task here: the pump (which keeps the scheduler alive) or a
    // task carrying the scope's marker.
    guard CurrentSchedulerSlot.isCurrent(scheduler) || CaptureMarker.scope != 0 else { return false }
    if case .scope(let record, escaped: false) = route(job) { return record.scheduler === scheduler }
    return false
  }

  private static func address(of scheduler: TestScheduler) -> UInt {
    UInt(bitPattern: Unmanaged.passUnretained(scheduler).toOpaque())
  }

  /// The runtime's ID of a retained task (0 for none).
  static func taskID(of task: SleepingTask?) -> UInt64 {
    guard let task else { return 0 }
    return TaskIdentity.taskID(atAddress: UInt(bitPattern: task.address))
  }
}

/// One shard of the task map.
private final class TaskShard: Sendable {
  let map = Mutex<[SequentialKey: CaptureScope]>([:])
}
