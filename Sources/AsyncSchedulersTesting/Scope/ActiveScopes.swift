import AsyncSchedulers
import Synchronization

/// The capturing scopes running in the process, and the tasks that belong to each: the rules the
/// runtime hooks apply to every global job and every question about the main actor while any scope
/// runs.
///
/// A task belongs to a scope when one of its jobs was enqueued by code the scope runs (its pump, a
/// driving call of its body, a task carrying its ``CaptureMarker``). From then on the task is
/// recognized by its *identity* (the runtime's task ID, unique in the process and never reused),
/// whoever enqueues its next job: a continuation resumed by a Dispatch callback, an `AsyncStream` fed
/// from another thread, a cancelling thread. So its jobs always run on the scope's scheduler, at the
/// current virtual instant, one at a time.
///
/// Scopes run in parallel: each sees only its own tasks. The hooks are installed when the first scope
/// starts and removed when the last ends.
final class ActiveScopes: Sendable {
  /// The scopes of the process.
  static let shared = ActiveScopes()

  private struct State {
    /// Each active scope's scheduler (retained while the scope runs).
    var schedulers: [UInt64: TestScheduler] = [:]
    /// The scope each active scheduler runs, by the scheduler's address.
    var scopeOfScheduler: [UInt: UInt64] = [:]
    /// The scope each task belongs to, by the task's ID.
    var scopeOfTask: [UInt64: UInt64] = [:]
    /// Each active scope's first task ID: tasks with a lower ID were created before the scope began.
    var firstTaskOfScope: [UInt64: UInt64] = [:]
  }

  private let state = Mutex(State())
  /// How many scopes are active; the hooks are installed while it is above zero.
  private let installations = Mutex(0)

  /// The runtime's task ID of a job (`swift_task_getJobTaskId`), unique for every task of the process.
  private static let jobTaskID = runtimeFunction(
    "swift_task_getJobTaskId", as: (@convention(c) (UnsafeMutableRawPointer) -> UInt64).self)

  /// Whether the runtime exports what the scopes need.
  var isAvailable: Bool {
    GlobalEnqueueHook.isAvailable && MainExecutorHook.isAvailable && Self.jobTaskID != nil
  }

  /// Starts `scope` on `scheduler`, with the calling task (the scope's body) as its first task,
  /// installing the hooks if it is the first active scope.
  func begin(_ scope: UInt64, on scheduler: TestScheduler) {
    let body = Self.currentTaskID()
    let first = Self.nextTaskID()
    state.withCriticalRegion { state in
      state.schedulers[scope] = scheduler
      state.scopeOfScheduler[Self.address(of: scheduler)] = scope
      state.firstTaskOfScope[scope] = first
      if body != 0 { state.scopeOfTask[body] = scope }
    }
    installations.withCriticalRegion { count in
      count += 1
      if count == 1 {
        GlobalEnqueueHook.install()
        MainExecutorHook.install()
      }
    }
  }

  /// Ends `scope`: its tasks are no longer recognized, and the hooks are removed if it was the last.
  func end(_ scope: UInt64) {
    installations.withCriticalRegion { count in
      count -= 1
      if count == 0 {
        GlobalEnqueueHook.uninstall()
        MainExecutorHook.uninstall()
      }
    }
    let scheduler = state.withCriticalRegion { state -> TestScheduler? in
      let scheduler = state.schedulers.removeValue(forKey: scope)
      if let scheduler { state.scopeOfScheduler[Self.address(of: scheduler)] = nil }
      state.firstTaskOfScope[scope] = nil
      state.scopeOfTask = state.scopeOfTask.filter { $0.value != scope }
      return scheduler
    }
    withExtendedLifetime(scheduler) {}  // Released after the lock.
  }

  /// Where the calling code belongs: the scope whose scheduler runs it on this thread, or the scope
  /// its task's marker names; `nil` for code outside every scope.
  func scopeOfCallingCode() -> (scope: UInt64, scheduler: TestScheduler)? {
    let running = CurrentSchedulerSlot.raw.map { UInt(bitPattern: $0) }
    let marker = CaptureMarker.scope
    guard running != nil || marker != 0 else { return nil }
    return state.withCriticalRegion { state in
      if let running, let scope = state.scopeOfScheduler[running], let scheduler = state.schedulers[scope] {
        return (scope, scheduler)
      }
      if marker != 0, let scheduler = state.schedulers[marker] { return (marker, scheduler) }
      return nil
    }
  }

  /// How one global job is routed.
  enum Route {
    /// To this scope's scheduler; `escaped` when a task of the scope hands it over while running
    /// outside the scope (the scope records it).
    case scope(TestScheduler, UInt64, escaped: Bool)
    /// On to the runtime's executor: the job is no scope's.
    case elsewhere
  }

  /// Routes a global job: to the scope its task belongs to, whoever enqueues it; else, for a task
  /// created since the scope began (or a job that is no task's), to the scope of the code enqueuing it,
  /// and the task joins that scope. A task that existed before (the test runner's, another test's)
  /// resumed by the scope's code is not the scope's: it goes on elsewhere.
  func route(_ job: UnownedJob) -> Route {
    let task = Self.taskID(of: job)
    let running = CurrentSchedulerSlot.raw.map { UInt(bitPattern: $0) }
    let marker = CaptureMarker.scope
    return state.withCriticalRegion { state -> Route in
      if task != 0, let scope = state.scopeOfTask[task], let scheduler = state.schedulers[scope] {
        return .scope(scheduler, scope, escaped: false)
      }
      let codeScope: (UInt64, escaped: Bool)?
      if let running, let scope = state.scopeOfScheduler[running] {
        codeScope = (scope, false)
      } else if marker != 0, state.schedulers[marker] != nil {
        codeScope = (marker, true)
      } else {
        codeScope = nil
      }
      guard let (scope, escaped) = codeScope, let scheduler = state.schedulers[scope] else { return .elsewhere }
      if task == 0 { return .scope(scheduler, scope, escaped: escaped) }
      guard task >= state.firstTaskOfScope[scope] ?? .max else { return .elsewhere }
      state.scopeOfTask[task] = scope
      return .scope(scheduler, scope, escaped: escaped)
    }
  }

  /// Whether the task with `id` belongs to an active scope (for tests of the rule).
  func contains(task id: UInt64) -> Bool { state.withCriticalRegion { $0.scopeOfTask[id] != nil } }

  /// The runtime's ID of the task a job belongs to (0 when the runtime does not say).
  static func taskID(of job: UnownedJob) -> UInt64 {
    guard let jobTaskID else { return 0 }
    return jobTaskID(unsafeBitCast(job, to: UnsafeMutableRawPointer.self))
  }

  /// The ID of the task running the calling code (0 outside a task). A task is a job (the runtime's
  /// `AsyncTask` is one), so its address is read as the job's.
  static func currentTaskID() -> UInt64 {
    guard let jobTaskID else { return 0 }
    return withUnsafeCurrentTask { task in
      task.map { jobTaskID(unsafeBitCast($0, to: UnsafeMutableRawPointer.self)) } ?? 0
    }
  }

  /// The ID the next task created in the process gets at least: the ID of a task created now (task
  /// IDs only grow). Creates one small task that does nothing.
  static func nextTaskID() -> UInt64 {
    guard let jobTaskID else { return 0 }
    let probe = Task.detached {}
    if MemoryLayout<Task<Void, Never>>.size != MemoryLayout<UnsafeMutableRawPointer>.size {
      fatalError("Task is expected to be one reference")
    }
    return jobTaskID(unsafeBitCast(probe, to: UnsafeMutableRawPointer.self))
  }

  private static func address(of scheduler: TestScheduler) -> UInt {
    UInt(bitPattern: Unmanaged.passUnretained(scheduler).toOpaque())
  }
}
