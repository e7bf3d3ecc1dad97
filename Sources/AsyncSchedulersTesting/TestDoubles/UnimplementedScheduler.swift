import AsyncSchedulers

/// A scheduler that fails the test whenever it is used, naming the member that was called
/// (swift-clocks' `UnimplementedClock`, combine-schedulers' `UnimplementedScheduler`).
///
/// Inject it where the code under test must not touch time or scheduling. Callback work is dropped
/// (never run) and returns a disposed handle; sleeps throw `CancellationError` after reporting, so the
/// code under test does not hang; task jobs still run inline (a task cannot be dropped safely).
public final class UnimplementedScheduler: Scheduler {
  /// A prefix for failure messages, to tell several unimplemented schedulers apart.
  public let name: String

  /// Creates a scheduler that reports every use under `name`.
  public init(_ name: String = "UnimplementedScheduler") { self.name = name }

  private func fail(_ member: String, fileID: String = #fileID, filePath: String = #filePath, line: Int = #line) {
    reportIssue(
      "Unimplemented: \(name).\(member) was called.", fileID: fileID, filePath: filePath, line: line, column: 1)
  }

  /// Reports the use and returns `.zero`.
  public var now: SchedulerInstant {
    fail("now")
    return .zero
  }

  /// Reports the use; the action never runs.
  @discardableResult
  public func schedule(_ action: @escaping @Sendable () -> Void) -> ScheduledAction {
    fail("schedule(_:)")
    return .finished
  }

  /// Reports the use; the action never runs.
  @discardableResult
  public func schedule(
    at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    fail("schedule(at:leeway:_:)")
    return .finished
  }

  /// Reports the use; the action never runs.
  public func execute(_ action: @escaping @Sendable () -> Void) {
    fail("execute(_:)")
  }

  /// Reports the use; the action never runs.
  public func execute(at deadline: SchedulerInstant, leeway: Duration = .zero, _ action: @escaping @Sendable () -> Void)
  {
    fail("execute(at:leeway:_:)")
  }

  /// Reports the use; the action never runs.
  @discardableResult
  public func scheduleRepeating(
    startingAt start: SchedulerInstant, every interval: Duration, leeway: Duration = .zero,
    _ action: @escaping @Sendable () -> Void
  ) -> ScheduledAction {
    fail("scheduleRepeating(startingAt:every:leeway:_:)")
    return .finished
  }

  /// Reports the use and throws `CancellationError`.
  public func sleep(until deadline: SchedulerInstant, tolerance: Duration? = nil) async throws {
    fail("sleep(until:tolerance:)")
    throw CancellationError()
  }

  /// Reports the use, then runs the job inline so the task is not lost.
  public func enqueue(_ job: consuming ExecutorJob) {
    fail("enqueue(_:) (a task preferring this scheduler)")
    UnownedJob(job).runSynchronously(on: asUnownedTaskExecutor())
  }
}
