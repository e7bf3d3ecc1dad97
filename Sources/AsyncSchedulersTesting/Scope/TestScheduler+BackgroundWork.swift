import AsyncSchedulers
import Synchronization

extension TestScheduler {
  /// Starts `operation` as background work of the running capturing scope (kotlinx-coroutines-test's
  /// `backgroundScope`): a task that runs on virtual time with the scope's other tasks, is cancelled
  /// when the scope's body returns or throws, and is awaited before the scope ends, so its cancelled
  /// sleeps and timers are not reported as pending work.
  ///
  /// Use it for work a test needs running but never finishing itself: a collector of a stream, a
  /// poller, a fake server loop.
  ///
  /// ```swift
  /// @Test(.virtualTime) func pollsEverySecond() async throws {
  ///   let scheduler = try #require(TestScheduler.current)
  ///   let polls = Counter()
  ///   scheduler.backgroundTask {
  ///     while !Task.isCancelled {
  ///       polls.increment()
  ///       try? await Task.sleep(for: .seconds(1))
  ///     }
  ///   }
  ///   try await Task.sleep(for: .milliseconds(3_500))
  ///   #expect(polls.value == 4)
  /// }  // the poller is cancelled and awaited here: nothing is left pending
  /// ```
  ///
  /// `operation` runs as an unstructured task of the scope (on this scheduler, one job at a time with
  /// the scope's other work); it must end when cancelled, or the scope waits for it (its stall and
  /// endless-advance bounds still apply). Called outside a capturing scope of this scheduler, it fails
  /// the test and runs `operation` as a plain task, not cancelled by anything.
  @discardableResult
  public func backgroundTask(
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ operation: sending @escaping @isolated(any) () async -> Void
  ) -> Task<Void, Never> {
    let task = Task(operation: operation)
    let capturing = isCapturing
    let kept = backgroundTasks.withCriticalRegion { tasks -> Bool in
      guard tasks != nil, capturing else { return false }
      tasks!.append(task)
      return true
    }
    if !kept {
      report(
        "TestScheduler '\(name)': backgroundTask was called outside a capturing scope of this scheduler (a "
          + ".virtualTime test or capturingAllTasks): the task runs as a plain task, which nothing cancels.",
        fileID: fileID, filePath: filePath, line: line, column: column)
    }
    return task
  }

  /// Starts collecting background tasks for a scope that begins.
  func beginBackgroundWork() { backgroundTasks.withCriticalRegion { $0 = [] } }

  /// Cancels the scope's background tasks and waits for them (from the body's task, inside the scope);
  /// returns once every one has ended, including ones started meanwhile.
  func endBackgroundWork() async {
    while let tasks = backgroundTasks.withCriticalRegion({ tasks -> [Task<Void, Never>]? in
      guard let started = tasks, !started.isEmpty else { return nil }
      tasks = []
      return started
    }) {
      for task in tasks { task.cancel() }
      for task in tasks { await task.value }
    }
    backgroundTasks.withCriticalRegion { $0 = nil }
  }
}
