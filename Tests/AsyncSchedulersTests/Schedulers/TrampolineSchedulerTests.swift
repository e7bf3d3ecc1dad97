import AsyncSchedulersTestSupport
import Synchronization
import Testing

@testable import AsyncSchedulers

@Suite("TrampolineScheduler")
struct TrampolineSchedulerTests {
  @Test("runs the first action inline and nested schedules after it, in order")
  func nestedRunAfterOuter() {
    let scheduler = TrampolineScheduler.shared
    let log = Log<String>()
    #expect(!TrampolineScheduler.isTrampolineActive)
    scheduler.schedule {
      log.append("outer start")
      #expect(TrampolineScheduler.isTrampolineActive)
      scheduler.schedule {
        log.append("first nested")
        scheduler.schedule { log.append("nested in nested") }
      }
      scheduler.schedule { log.append("second nested") }
      log.append("outer end")
    }
    log.append("returned")
    #expect(
      log.values == ["outer start", "outer end", "first nested", "second nested", "nested in nested", "returned"])
  }

  @Test("a queued action disposed before it starts never runs")
  func disposeQueued() {
    let scheduler = TrampolineScheduler.shared
    let ran = Atomic<Bool>(false)
    scheduler.schedule {
      let handle = scheduler.schedule { ran.store(true, ordering: .relaxed) }
      handle.dispose()
    }
    let didRun = ran.load(ordering: .relaxed)
    #expect(!didRun)
  }

  @Test("100,000-deep recursion completes without growing the stack")
  func deepRecursion() {
    let scheduler = TrampolineScheduler.shared
    let remaining = Atomic<Int>(100_000)
    let maxDepth = Atomic<Int>(0)
    let depth = Atomic<Int>(0)
    @Sendable func step() {
      let current = depth.wrappingAdd(1, ordering: .relaxed).newValue
      if current > maxDepth.load(ordering: .relaxed) { maxDepth.store(current, ordering: .relaxed) }
      if remaining.wrappingSubtract(1, ordering: .relaxed).newValue > 0 { scheduler.schedule(step) }
      depth.wrappingSubtract(1, ordering: .relaxed)
    }
    scheduler.schedule(step)
    #expect(remaining.load(ordering: .relaxed) == 0)
    #expect(maxDepth.load(ordering: .relaxed) == 1)
  }

  @Test("a task preferring it runs on the enqueuing thread")
  func taskExecutor() async {
    let value = await Task(executorPreference: TrampolineScheduler.shared) { 7 }.value
    #expect(value == 7)
  }

  @Test("a sleep on it holds the thread until its deadline, but cancelling the task ends it at once")
  func sleepIsCancellable() async { await InlineSchedulerChecks.sleepIsCancellable(on: TrampolineScheduler.shared) }

  @Test("a sleep until a deadline reached through any Scheduler or some Scheduler is still cancelled at once")
  func sleepUntilThroughTheProtocol() async {
    await InlineSchedulerChecks.sleepUntilIsCancellableThroughTheProtocol(on: TrampolineScheduler.shared)
  }

  @Test("a sleep until distantFuture lasts until cancelled, and a timer there never runs and never blocks")
  func distantFuture() async { await InlineSchedulerChecks.distantFutureNeverBlocks(on: TrampolineScheduler.shared) }

  @Test("an instance other than shared runs its queued task jobs on its own executor, so their awaits do not hop")
  func otherInstanceKeepsItsExecutor() async {
    let scheduler = TrampolineScheduler(name: "other")
    let trace = Log<String>()
    let done = Latch()
    scheduler.schedule {
      // Queued behind the running action: the task's first job, then a plain action.
      Task(executorPreference: scheduler) {
        trace.append("task starts")
        await hopIfOnAnotherExecutor()
        trace.append("task resumes")
        done.signal()
      }
      scheduler.schedule { trace.append("action") }
    }
    #expect(await done.wait(timeout: .seconds(30)))
    // Run on `.shared`'s executor, the task would hop back to this instance (at its start and at its
    // await), behind the queued action.
    #expect(trace.values == ["task starts", "task resumes", "action"])
  }
}

/// A nonisolated async call: it runs on the task's preferred executor, hopping there only if the task
/// is running elsewhere.
nonisolated func hopIfOnAnotherExecutor() async {}
