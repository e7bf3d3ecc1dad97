/// Tasks and jobs as the runtime identifies them: the task ID of a job (`swift_task_getJobTaskId`,
/// unique in the process and never reused) and the address of a task or job (compared, never
/// dereferenced). The only place that bit-casts the runtime's task and job objects.
enum TaskIdentity {
  /// The runtime's `swift_task_getJobTaskId`.
  private static let jobTaskID = runtimeFunction(
    "swift_task_getJobTaskId", as: (@convention(c) (UnsafeMutableRawPointer) -> UInt64).self)

  /// Whether the runtime exports what task IDs need.
  static var isAvailable: Bool { jobTaskID != nil }

  /// The runtime's ID of the task a job belongs to (0 when the runtime does not say).
  @inline(__always)
  static func taskID(of job: UnownedJob) -> UInt64 {
    guard let jobTaskID else { return 0 }
    return jobTaskID(unsafeBitCast(job, to: UnsafeMutableRawPointer.self))
  }

  /// The runtime's ID of the task whose job (or task) is at `address` (0 when the runtime does not say).
  static func taskID(atAddress address: UInt) -> UInt64 {
    guard let jobTaskID, let pointer = UnsafeMutableRawPointer(bitPattern: address) else { return 0 }
    return jobTaskID(pointer)
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

  /// The address of a job (for a task's job, the task's address).
  @inline(__always)
  static func address(of job: UnownedJob) -> UInt { unsafeBitCast(job, to: UInt.self) }

  /// The address of the task running the calling code (`nil` outside a task).
  @inline(__always)
  static func currentTaskAddress() -> UInt? {
    withUnsafeCurrentTask { $0.map(address(of:)) }
  }

  /// The address of a task (`UnsafeCurrentTask` is a single reference to the task object; reading it as
  /// a word takes no ownership).
  @inline(__always)
  static func address(of task: UnsafeCurrentTask) -> UInt {
    if MemoryLayout<UnsafeCurrentTask>.size != MemoryLayout<UInt>.size {
      fatalError("UnsafeCurrentTask is expected to be one reference")
    }
    return unsafeBitCast(task, to: UInt.self)
  }

  /// The task at `address` seen as an `UnsafeCurrentTask`, to read or set its cancellation (the caller
  /// keeps it retained).
  static func task(at address: UnsafeMutableRawPointer) -> UnsafeCurrentTask {
    unsafeBitCast(address, to: UnsafeCurrentTask.self)
  }

  /// The runtime's generic executor (the global concurrent executor's identity), as an
  /// `UnownedSerialExecutor`: both words zero, as the runtime spells it (`SerialExecutorRef::generic()`).
  /// Running a job "on" it tells the runtime the job needs no hop to reach nonisolated code.
  static let genericExecutor: UnownedSerialExecutor = {
    if MemoryLayout<UnownedSerialExecutor>.size != 2 * MemoryLayout<Int>.size {
      fatalError("UnownedSerialExecutor is expected to be two words (identity, implementation)")
    }
    return unsafeBitCast((0, 0) as (Int, Int), to: UnownedSerialExecutor.self)
  }()
}
