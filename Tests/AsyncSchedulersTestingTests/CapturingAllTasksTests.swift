import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import AsyncSchedulers

/// A default actor (it runs on the global executor unless a scope captures it).
private actor Counter {
  var value = 0
  func increment() -> (Int, Bool) {
    value += 1
    return (value, Schedulers.current != nil)
  }
}

@Suite("TestScheduler.capturingAllTasks")
struct CapturingAllTasksTests {
  @Test(
    "Operators built on internal tasks and clock.sleep give one exact trace 1,000 times inside the scope",
    arguments: OperatorScenario.allCases)
  func operatorsAreExactInsideTheScope(scenario: OperatorScenario) async {
    // 1,000 runs; 100 under ThreadSanitizer (which checks for races, not for the count).
    let runs = ThreadSanitizerHooks.shared == nil ? 1_000 : 100
    var traces: [[String]: Int] = [:]
    for _ in 0..<runs {
      let scheduler = TestScheduler()
      let trace = Trace()
      await scheduler.capturingAllTasks {
        let consumer = scenario.start(on: scheduler, trace: trace, preferringScheduler: false)
        scheduler.advance(by: .seconds(1))
        await consumer.value
      }
      traces[trace.values, default: 0] += 1
    }
    #expect(traces == [scenario.expected: runs])
  }

  @Test("Unstructured tasks, detached tasks and default actors run on the scheduler inside the scope")
  func globalWorkRunsOnTheScheduler() async {
    let scheduler = TestScheduler()
    let counter = Counter()
    let (unstructured, detached, actor) = await scheduler.capturingAllTasks {
      let unstructured = await Task { Schedulers.current === scheduler }.value
      let detached = await Task.detached { Schedulers.current === scheduler }.value
      let actor = await counter.increment().1
      return (unstructured, detached, actor)
    }
    #expect(unstructured)
    #expect(detached)
    #expect(actor)
  }

  @Test("Ready work runs in FIFO order without the test driving it, and the clock does not move")
  func readyWorkRunsByItself() async {
    let scheduler = TestScheduler()
    let trace = Trace()
    await scheduler.capturingAllTasks {
      let tasks = (1...5).map { index in Task { trace("\(index)") } }
      for task in tasks { await task.value }
    }
    #expect(trace.values == ["1", "2", "3", "4", "5"])
    #expect(scheduler.now == .zero)
  }

  @Test("The hook is removed when the scope ends, also when its body throws")
  func hookIsRemovedOnExit() async throws {
    struct Failure: Error {}
    let scheduler = TestScheduler()
    await #expect(throws: Failure.self) {
      try await scheduler.capturingAllTasks { throw Failure() }
    }
    let afterThrow = await Task { Schedulers.current === scheduler }.value
    #expect(!afterThrow)
    await scheduler.capturingAllTasks {}
    let afterReturn = await Task { Schedulers.current === scheduler }.value
    #expect(!afterReturn)
    #expect(scheduler.pendingCount == 0)
  }

  @Test("The hook is removed when the task running the scope is cancelled")
  func hookIsRemovedOnCancellation() async {
    let scheduler = TestScheduler()
    // The latch's signal resumes this test's task from inside the scope, so the task joins the scope
    // until it next suspends: it cancels the scope from the pump. (Blocking on a semaphore instead
    // could starve the cooperative pool on two cores.) The bound is generous: the scope waits for the
    // scopes of other tests, which take long under ThreadSanitizer.
    let entered = Latch()
    // Under ThreadSanitizer the run can stall every thread for minutes at its start: the stall bound
    // must outlast that, or the scope fires the sleep itself before the cancellation arrives.
    let stallBound: Duration = ThreadSanitizerHooks.shared == nil ? .seconds(10) : .seconds(1_200)
    let outer = Task {
      try await scheduler.capturingAllTasks(autoAdvance: false, stallTimeout: stallBound) {
        entered.signal()
        try await scheduler.sleep(for: .seconds(1))
      }
    }
    #expect(await entered.wait())
    outer.cancel()
    await #expect(throws: CancellationError.self) { try await outer.value }
    let afterCancellation = await Task { Schedulers.current === scheduler }.value
    #expect(!afterCancellation)
    #expect(scheduler.pendingCount == 0)
  }

  // Not under ThreadSanitizer: the outsider's task needs a thread of the cooperative pool while this
  // scope's pump is blocked, and late in the sanitized suite none came within 60 s once (parallel
  // scopes load the pool more than scopes taking turns did).
  @Test(
    "Global work of code outside the scope (another test's) is not captured while a scope is active",
    .enabled(if: ThreadSanitizerHooks.shared == nil))
  func otherGlobalWorkIsNotCaptured() async {
    let scheduler = TestScheduler()
    let start = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    let ranOnScheduler = Locked<Bool?>(nil)
    // Outside any task and any scope: like a test running in parallel.
    let outsider = Thread {
      start.wait()
      Task {
        ranOnScheduler.withCriticalRegion { $0 = Schedulers.current === scheduler }
        done.signal()
      }
    }
    outsider.start()
    // The body blocks the scope's thread on purpose: a stall timeout beyond the wait keeps the pump
    // watch (which would hand the scope to a new thread) out of it. The outsider's task needs a thread of
    // the cooperative pool, which the parallel suite on two cores has kept busy for over a minute: a
    // generous bound.
    let completed = await scheduler.capturingAllTasks(stallTimeout: .seconds(900)) {
      start.signal()
      // The pump is blocked here: captured work could not run, so only uncaptured work completes.
      return done.wait(timeout: .now() + 600) == .success
    }
    #expect(completed)
    #expect(ranOnScheduler.withCriticalRegion { $0 } == false)
  }

  @Test("Scopes of tests running in parallel run at the same time, each on its own clock")
  func scopesRunInParallel() async {
    let entered = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
    let scope: @Sendable (Int) async -> (met: Bool, woke: SchedulerInstant?) = { index in
      let scheduler = TestScheduler(name: "scope \(index)")
      return await scheduler.capturingAllTasks {
        entered[index].signal()
        // Both scopes are active at once: each waits for the other to have started.
        let met = entered[1 - index].wait(timeout: .now() + 30) == .success
        let sleeper = Task {
          try? await Task.sleep(for: .seconds(index + 1))
          return scheduler.now
        }
        scheduler.advance(by: .seconds(index + 1))
        return (met, await sleeper.value)
      }
    }
    async let first = scope(0)
    async let second = scope(1)
    let (a, b) = await (first, second)
    #expect(a.met && b.met)
    #expect(a.woke == SchedulerInstant.zero.advanced(by: .seconds(1)))
    #expect(b.woke == SchedulerInstant.zero.advanced(by: .seconds(2)))
  }

  @Test("Without auto-advance, a body awaiting virtual time it never advanced is reported, and the scope still ends")
  func stalledBodyIsReported() async {
    let scheduler = TestScheduler()
    await withKnownIssue {
      let value = await scheduler.capturingAllTasks(autoAdvance: false, stallTimeout: .milliseconds(50)) {
        await Task {
          try? await scheduler.sleep(for: .seconds(1))
          return 7
        }.value
      }
      #expect(value == 7)
      #expect(scheduler.now == SchedulerInstant.zero.advanced(by: .seconds(1)))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("with nothing ready to run") }
    }
  }

  @Test(
    "A body awaiting a stream nobody feeds fails on its own test after the stall timeout, and is cancelled so it ends")
  func bodyAwaitingWhatNeverComesEnds() async {
    // It hung forever: the stall was stored for the end of a scope that never ended. withKnownIssue
    // sees only issues recorded on this test: a report on «unknown» would fail it.
    let scheduler = TestScheduler()
    await withKnownIssue {
      let received = await scheduler.capturingAllTasks(stallTimeout: .milliseconds(100)) {
        let (stream, _) = AsyncStream<Int>.makeStream()
        var received = 0
        for await _ in stream { received += 1 }
        return received
      }
      #expect(received == 0)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("It awaits what never came") }
    }
  }

  @Test("A task of the scope that uses plain Task.sleep sleeps on the virtual clock, with no escape")
  func taskSleepIsVirtualInTheScope() async {
    let scheduler = TestScheduler()
    let woke = await scheduler.capturingAllTasks {
      let task = Task {
        try? await Task.sleep(for: .milliseconds(100))
        return scheduler.now
      }
      scheduler.advance(by: .milliseconds(100))
      return await task.value
    }
    #expect(woke == SchedulerInstant.zero.advanced(by: .milliseconds(100)))
  }

  @Test("Work pending when the scope ends stays on the scheduler and runs on its next driving call")
  func pendingWorkOutlivesTheScope() async {
    let scheduler = TestScheduler()
    let trace = Trace()
    await scheduler.capturingAllTasks(expectingNoPendingWork: false) {
      scheduler.schedule(at: SchedulerInstant.zero.advanced(by: .seconds(1))) { trace("timer") }
    }
    #expect(scheduler.pendingCount == 1)
    scheduler.advance(by: .seconds(1))
    #expect(trace.values == ["timer"])
  }

  @MainActor
  @Test("From a @MainActor test the body calls main-actor code directly, and main-thread checks hold in its jobs")
  func mainActorBodyAndChecks() async {
    let scheduler = TestScheduler()
    let checks = await scheduler.capturingAllTasks {
      let direct = MainActorProbe.check()
      let fromTask = await Task { MainActorProbe.check() }.value
      let fromHop = await Task.detached { await MainActorProbe.hop() }.value
      return [direct, fromTask, fromHop]
    }
    #expect(
      checks == [
        "main actor, main queue, on the scheduler", "main actor, main queue, on the scheduler",
        "main actor, main queue, on the scheduler",
      ])
  }

  @Test("Runaway main-actor tasks and main-queue blocks of the scope are named as what they are, not as bridged blocks")
  func runawayMainActorWorkIsNamed() async {
    // A small bound: each main-actor job and main-queue block of a scope holds the real main queue, which
    // the parallel suite's other main-actor work contends for.
    let scheduler = TestScheduler(maximumJobsPerInstant: 20)
    let stop = Locked(false)
    @Sendable func repostOnTheMainQueue() {
      DispatchQueue.main.async { if !stop.withCriticalRegion({ $0 }) { repostOnTheMainQueue() } }
    }
    let issues = await IssueCapture.collecting {
      await scheduler.capturingAllTasks {
        let spinner = Task { @MainActor in
          while !stop.withCriticalRegion({ $0 }) { await Task.yield() }
        }
        repostOnTheMainQueue()
        scheduler.run()
        stop.withCriticalRegion { $0 = true }
        scheduler.run()
        await spinner.value
      }
    }
    let runaway = issues.first { $0.contains("stopped after running 20 jobs") }
    #expect(runaway?.contains("task or actor job(s)") == true)
    #expect(runaway?.contains("main-queue block(s)") == true)
    #expect(runaway?.contains("bridged block") == false)
  }

  @Test("A main-queue block of the scope waiting in the FIFO is listed as a main-queue block")
  func pendingMainQueueBlockIsNamed() async {
    let scheduler = TestScheduler()
    let pending = await scheduler.capturingAllTasks {
      DispatchQueue.main.async {}
      return scheduler.pendingDescription
    }
    #expect(pending.contains("main-queue block, ready at 0.0 seconds"))
    #expect(!pending.contains("callback job"))
  }

  @Test("Main-actor work of code outside the scope runs on the real main actor while a scope is active")
  func outsideMainActorWorkIsUntouched() async {
    let scheduler = TestScheduler()
    // Flags, not semaphores: blocking would take threads of the cooperative pool (two on two cores).
    let scopeActive = Atomic<Bool>(false)
    let outsideDone = Atomic<Bool>(false)
    let outside = Task.detached {
      while !scopeActive.load(ordering: .acquiring) { await Task.yield() }
      defer { outsideDone.store(true, ordering: .releasing) }
      return await MainActorProbe.hop()
    }
    await scheduler.capturingAllTasks {
      scopeActive.store(true, ordering: .releasing)
      while !outsideDone.load(ordering: .acquiring) { await Task.yield() }
    }
    #expect(await outside.value == "main actor, main queue, off the scheduler")
  }

  @Test("The body's own steps are part of the scope: awaiting an actor, a task group and Task.yield report nothing")
  func bodyStepsAreNotEscapes() async {
    let scheduler = TestScheduler()
    let counter = Counter()
    let total = await scheduler.capturingAllTasks {
      await Task.yield()
      let fromActor = await counter.increment().0
      let fromGroup = await withTaskGroup(of: Int.self) { group in
        for index in 1...3 { group.addTask { index } }
        return await group.reduce(0, +)
      }
      await Task.yield()
      return fromActor + fromGroup
    }
    #expect(total == 7)
  }

  @Test("A scope nested in a scope of the same scheduler runs its body in the outer scope")
  func nestedScopeOfTheSameScheduler() async {
    let scheduler = TestScheduler()
    let inner = await scheduler.capturingAllTasks {
      await scheduler.capturingAllTasks { await Task { Schedulers.current === scheduler }.value }
    }
    #expect(inner)
  }

  @Test("A scope nested in another scheduler's scope fails at once, and its body still runs")
  func nestedScopeOfAnotherScheduler() async {
    let outer = TestScheduler(name: "outer")
    let inner = TestScheduler(name: "inner")
    await withKnownIssue {
      let ran = await outer.capturingAllTasks { await inner.capturingAllTasks { true } }
      #expect(ran)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("scopes do not nest across schedulers") }
    }
  }

  @Test("A scope started from a task that prefers another executor fails at once, and its body still runs")
  func scopeFromAPreferringTask() async {
    let scheduler = TestScheduler()
    let other = SerialScheduler(name: "other")
    await withKnownIssue {
      let ran = await Task(executorPreference: other) { await scheduler.capturingAllTasks { true } }.value
      #expect(ran)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("prefers another executor") }
    }
  }

  @Test("A task started before the scope and resumed by its body is not stranded on the scheduler after it")
  func resumedOutsideTaskIsNotStranded() async {
    let scheduler = TestScheduler()
    let parked = Mutex<CheckedContinuation<Void, Never>?>(nil)
    let outside = Task.detached {
      await withCheckedContinuation { continuation in parked.withCriticalRegion { $0 = continuation } }
      return "resumed"
    }
    while parked.withCriticalRegion({ $0 == nil }) { await Task.yield() }
    await scheduler.capturingAllTasks {
      parked.withCriticalRegion { $0.take() }?.resume()
    }
    #expect(await outside.value == "resumed")
    #expect(scheduler.pendingCount == 0)
  }
}

/// Reports where main-actor code runs: whether main-actor isolation and the main queue hold (the
/// checks would trap otherwise), and whether a scheduler runs it.
@MainActor
private enum MainActorProbe {
  static func check() -> String {
    MainActor.assumeIsolated {}
    dispatchPrecondition(condition: .onQueue(.main))
    return "main actor, main queue, " + (Schedulers.current is TestScheduler ? "on the scheduler" : "off the scheduler")
  }

  static func hop() async -> String { check() }
}

/// Once the body has returned, the clock does not move: the state a caller sees after the scope is the
/// same every run, from any isolation.
@Suite("The end of a capturing scope")
struct CaptureScopeEndTests {
  /// The scope of the issue: a task sleeping three times 5 s, a body sleeping 6 s.
  private static func scope(on scheduler: TestScheduler, isolation: isolated (any Actor)? = #isolation) async {
    await scheduler.capturingAllTasks(expectingNoPendingWork: false) {
      Task { for _ in 0..<3 { try? await Task.sleep(for: .seconds(5)) } }
      try? await Task.sleep(for: .seconds(6))
    }
  }

  @MainActor
  @Test("from a @MainActor caller, the clock stays where the body returned, 20 times of 20")
  func mainActorCaller() async {
    var nows: [SchedulerInstant: Int] = [:]
    for _ in 0..<20 {
      let scheduler = TestScheduler()
      await Self.scope(on: scheduler)
      nows[scheduler.now, default: 0] += 1
      #expect(scheduler.pendingCount == 1, "the task's second sleep (due at 10 s) is left pending")
      scheduler.run()
    }
    #expect(nows == [.zero.advanced(by: .seconds(6)): 20])
  }

  @Test("from a nonisolated caller, the clock stays where the body returned, 20 times of 20")
  func nonisolatedCaller() async {
    var nows: [SchedulerInstant: Int] = [:]
    for _ in 0..<20 {
      let scheduler = TestScheduler()
      await Self.scope(on: scheduler)
      nows[scheduler.now, default: 0] += 1
      scheduler.run()
    }
    #expect(nows == [.zero.advanced(by: .seconds(6)): 20])
  }
}
