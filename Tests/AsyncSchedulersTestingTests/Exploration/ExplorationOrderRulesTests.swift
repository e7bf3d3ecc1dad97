import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Synchronization
import Testing

@testable import AsyncSchedulers

/// Appends in order, from any isolation.
private final class Log: Sendable {
  private let entries = Mutex<[Int]>([])
  func append(_ value: Int) { entries.withLock { $0.append(value) } }
  var values: [Int] { entries.withLock { $0 } }
}

/// An actor whose jobs run on the test scheduler's serial queue.
private actor BoundRecorder {
  nonisolated let unownedExecutor: UnownedSerialExecutor
  private let log: Log
  init(scheduler: TestScheduler, log: Log) {
    unownedExecutor = scheduler.asUnownedSerialExecutor()
    self.log = log
  }
  func record(_ value: Int) { log.append(value) }
}

/// How many runs each exploration makes: 200 (20 under ThreadSanitizer, whose runs are ten times slower).
private var explorationRuns: Int { ThreadSanitizerHooks.shared == nil ? 200 : 20 }

@Suite("Exploring orderings never reorders what Swift orders")
struct ExplorationOrderRulesTests {
  @Test("The main actor's jobs keep their enqueue order in every explored run")
  func mainActorJobsKeepTheirOrder() async {
    let report = await TestScheduler.exploringOrderings(runs: explorationRuns) { _ in
      let log = Log()
      let tasks = (0..<5).map { index in Task { @MainActor in log.append(index) } }
      let other = Task { log.append(99) }
      for task in tasks { await task.value }
      await other.value
      try expectOrder(log.values.filter { $0 != 99 } == [0, 1, 2, 3, 4], "main-actor jobs ran as \(log.values)")
    }
    #expect(report.failure == nil)
    #expect(report.distinctOrderings > 1)
  }

  @Test("An actor bound to the scheduler runs its calls in their enqueue order in every explored run")
  func schedulerQueueKeepsItsOrder() async {
    let report = await TestScheduler.exploringOrderings(runs: explorationRuns) { scheduler in
      let log = Log()
      let recorder = BoundRecorder(scheduler: scheduler, log: log)
      // One task makes the calls in order; other tasks compete with it.
      let caller = Task { for index in 0..<5 { await recorder.record(index) } }
      let others = (0..<3).map { _ in Task { log.append(99) } }
      await caller.value
      for other in others { await other.value }
      try expectOrder(log.values.filter { $0 != 99 } == [0, 1, 2, 3, 4], "the actor ran its calls as \(log.values)")
    }
    #expect(report.failure == nil)
  }

  @Test("Timers fire by deadline in every explored run, and a task's steps keep their order")
  func timersFireByDeadline() async {
    let report = await TestScheduler.exploringOrderings(runs: explorationRuns) { _ in
      let log = Log()
      let sleepers = [3, 1, 2].map { seconds in
        Task {
          try await Task.sleep(for: .seconds(seconds))
          log.append(seconds)
          log.append(seconds * 10)
        }
      }
      for sleeper in sleepers { try await sleeper.value }
      try expectOrder(log.values == [1, 10, 2, 20, 3, 30], "the sleepers woke as \(log.values)")
    }
    #expect(report.failure == nil)
  }

  @Test("Jobs of different tasks ready at one instant run in more than one order")
  func tasksReadyTogetherArePermuted() async {
    let orders = Mutex<Set<[Int]>>([])
    let report = await TestScheduler.exploringOrderings(runs: 100) { _ in
      let log = Log()
      let tasks = (0..<3).map { index in Task { log.append(index) } }
      for task in tasks { await task.value }
      orders.withLock { _ = $0.insert(log.values) }
    }
    #expect(report.failure == nil)
    #expect(orders.withLock { $0.count } == 6)
  }

  @Test("Sleeps due at the same instant wake together: their tasks run in more than one order")
  func sleepsDueTogetherWakeTogether() async {
    let orders = Mutex<Set<[Int]>>([])
    await TestScheduler.exploringOrderings(runs: 100) { _ in
      let log = Log()
      let sleepers = (0..<2).map { index in
        Task {
          try await Task.sleep(for: .seconds(1))
          log.append(index)
        }
      }
      for sleeper in sleepers { try await sleeper.value }
      orders.withLock { _ = $0.insert(log.values) }
    }
    #expect(orders.withLock { $0 } == [[0, 1], [1, 0]])
  }

  @Test("Without exploring, the same code always runs in FIFO order")
  func plainScopeStaysFIFO() async {
    for _ in 0..<50 {
      let scheduler = TestScheduler()
      let log = Log()
      await scheduler.capturingAllTasks {
        let sleepers = (0..<3).map { index in
          Task {
            try await Task.sleep(for: .seconds(1))
            log.append(index)
          }
        }
        for sleeper in sleepers { _ = try? await sleeper.value }
      }
      #expect(log.values == [0, 1, 2])
    }
  }

  @Test(
    "Time stays exact while exploring: a sleep wakes at its virtual deadline",
    .enabled(if: ThreadSanitizerHooks.shared == nil, "plain sleeps' deadlines are recovered from real time"))
  func timeStaysExact() async {
    await TestScheduler.exploringOrderings(runs: 50) { scheduler in
      let start = scheduler.now
      try await Task.sleep(for: .milliseconds(1_250))
      try expectOrder(start.duration(to: scheduler.now) == .milliseconds(1_250), "woke at \(scheduler.now)")
    }
  }
}
