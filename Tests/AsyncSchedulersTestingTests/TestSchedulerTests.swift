import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@Suite("TestScheduler")
struct TestSchedulerTests {
  @Test("its clock starts at zero and nothing runs until it is driven")
  func startsAtZero() {
    let scheduler = TestScheduler()
    let trace = Trace()
    scheduler.schedule { trace("ran") }
    Task(executorPreference: scheduler) { trace("task") }
    #expect(scheduler.now == .zero)
    #expect(trace.values.isEmpty)
    #expect(scheduler.pendingCount == 2)
    #expect(scheduler.nextDeadline == .zero)
    scheduler.advance()
    #expect(trace.values == ["ran", "task"])
  }

  @Test(
    "during an advance now is each job's due time, later work due by the target runs, and the clock ends at the target")
  func advanceSemantics() {
    let scheduler = TestScheduler()
    let trace = Trace()
    scheduler.schedule(after: .seconds(1)) {
      trace("a at \(scheduler.now.ms)")
      scheduler.schedule(after: .seconds(1)) { trace("b at \(scheduler.now.ms)") }
      scheduler.schedule(after: .seconds(5)) { trace("c at \(scheduler.now.ms)") }
    }
    scheduler.advance(by: .milliseconds(2500))
    #expect(trace.values == ["a at 1000", "b at 2000"])
    #expect(scheduler.now.ms == 2500)
    #expect(scheduler.nextDeadline?.ms == 6000)
    scheduler.advance(to: SchedulerInstant(offset: .seconds(6)))
    #expect(trace.values.last == "c at 6000")
  }

  @Test("equal due times run in scheduling order, and a repeating timer keeps its original place")
  func equalTimes() {
    let scheduler = TestScheduler()
    let trace = Trace()
    scheduler.scheduleRepeating(startingAt: SchedulerInstant(offset: .seconds(1)), every: .seconds(1)) {
      trace("repeat at \(scheduler.now.ms)")
    }
    scheduler.schedule(at: SchedulerInstant(offset: .seconds(2))) { trace("first at 2") }
    scheduler.schedule(at: SchedulerInstant(offset: .seconds(2))) { trace("second at 2") }
    scheduler.advance(by: .seconds(2))
    #expect(trace.values == ["repeat at 1000", "repeat at 2000", "first at 2", "second at 2"])
  }

  @Test("fire-and-forget timers (execute(after:)) run on virtual time, in order with handle timers")
  func executeAfter() {
    let scheduler = TestScheduler()
    let trace = Trace()
    scheduler.execute(after: .seconds(2)) { trace("execute 2 at \(scheduler.now.ms)") }
    scheduler.schedule(after: .seconds(1)) { trace("schedule 1 at \(scheduler.now.ms)") }
    scheduler.execute(after: .seconds(1)) { trace("execute 1 at \(scheduler.now.ms)") }
    scheduler.advance(by: .seconds(2))
    #expect(trace.values == ["schedule 1 at 1000", "execute 1 at 1000", "execute 2 at 2000"])
  }

  @Test("a repeating timer re-arms from its scheduled time, so it never drifts")
  func noDrift() {
    let scheduler = TestScheduler()
    let trace = Trace()
    scheduler.scheduleRepeating(every: .milliseconds(300)) { trace("\(scheduler.now.ms)") }
    scheduler.advance(by: .milliseconds(1000))
    scheduler.advance(by: .milliseconds(1000))
    #expect(trace.values == ["300", "600", "900", "1200", "1500", "1800"])
  }

  @Test("time never moves backwards: advancing to the past fails and changes nothing")
  func noTimeTravel() {
    let scheduler = TestScheduler(now: SchedulerInstant(offset: .seconds(5)))
    withKnownIssue {
      scheduler.advance(to: .zero)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("cannot move back in time") }
    }
    withKnownIssue {
      scheduler.advance(by: .seconds(-1))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("cannot move back in time") }
    }
    #expect(scheduler.now.ms == 5000)
  }

  @Test("sleeping until now, or a past instant, returns at once without waiting for an advance")
  func sleepUntilNow() {
    let scheduler = TestScheduler()
    let trace = Trace()
    Task(executorPreference: scheduler) {
      try await scheduler.sleep(until: scheduler.now)
      trace("after sleep until now")
      try await scheduler.sleep(for: .zero)
      trace("after zero sleep")
    }
    scheduler.advance()
    #expect(trace.values == ["after sleep until now", "after zero sleep"])
    #expect(scheduler.now == .zero)
  }

  @Test("run() is bounded: an endless repeating timer stops it with a clear message")
  func runIsBounded() {
    let scheduler = TestScheduler()
    scheduler.scheduleRepeating(every: .seconds(1)) {}
    withKnownIssue {
      scheduler.run(maximumSteps: 1_000)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("endless repeating timer") }
    }
    #expect(scheduler.now.ms == 1_000_000)
  }

  @Test("run() runs everything, moving the clock to the last deadline")
  func runRunsEverything() {
    let scheduler = TestScheduler()
    let trace = Trace()
    scheduler.schedule(after: .seconds(3)) { trace("3") }
    scheduler.schedule(after: .seconds(1)) { trace("1") }
    scheduler.run()
    #expect(trace.values == ["1", "3"])
    #expect(scheduler.now.ms == 3000)
    scheduler.expectNoPendingWork()
  }

  @Test("step runs the next piece of work: ready work before any timer, then timers in date order")
  func stepping() {
    let scheduler = TestScheduler()
    let trace = Trace()
    scheduler.schedule(after: .seconds(2)) { trace("dated 2") }
    scheduler.schedule(after: .seconds(1)) { trace("dated 1") }
    scheduler.schedule { trace("plain 1") }
    scheduler.schedule { trace("plain 2") }
    #expect(scheduler.step())
    #expect(trace.values == ["plain 1"])
    scheduler.step(2)
    #expect(trace.values == ["plain 1", "plain 2", "dated 1"])
    scheduler.stepAll()
    #expect(trace.values == ["plain 1", "plain 2", "dated 1", "dated 2"])
    #expect(!scheduler.step())
  }

  @Test("a repeating timer re-enqueues itself at date + interval when stepped")
  func steppingRepeating() {
    let scheduler = TestScheduler()
    let trace = Trace()
    let timer = scheduler.scheduleRepeating(every: .seconds(1)) { trace("\(scheduler.now.ms)") }
    scheduler.step(3)
    #expect(trace.values == ["1000", "2000", "3000"])
    timer.dispose()
    #expect(!scheduler.step())
  }

  @Test("expectNoPendingWork fails the test and lists what is pending")
  func pendingCheck() {
    let scheduler = TestScheduler()
    scheduler.schedule(after: .seconds(2)) {}
    scheduler.scheduleRepeating(every: .seconds(1)) {}
    withKnownIssue {
      scheduler.expectNoPendingWork()
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("timer or plain sleep due at 2.0 seconds") && $0.rawValue.contains("repeating timer")
      }
    }
  }

  @Test("driving calls may not nest: a job calling advance fails the test and returns")
  func noNesting() {
    let scheduler = TestScheduler()
    let trace = Trace()
    scheduler.schedule {
      scheduler.advance(by: .seconds(1))
      trace("job continued")
    }
    withKnownIssue {
      scheduler.advance()
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("already being driven") }
    }
    #expect(trace.values == ["job continued"])
    #expect(scheduler.now == .zero)
  }

  @Test("an actor bound to it is isolated to it inside its jobs and nowhere else")
  func actorIsolation() {
    let scheduler = TestScheduler()
    let trace = Trace()
    Task(executorPreference: scheduler) {
      trace("isolating: \(scheduler.isIsolatingCurrentContext() == true)")
      trace("current: \(Schedulers.current === scheduler)")
    }
    scheduler.advance()
    #expect(trace.values == ["isolating: true", "current: true"])
    #expect(scheduler.isIsolatingCurrentContext() == false)
  }

  @Test("runUntil waits, with a bound, for work that escaped to another thread to come back, and reports the escape")
  func waitsForEscapedWork() {
    let scheduler = TestScheduler()
    let trace = Trace()
    withKnownIssue {
      // Work escapes to another thread, which later schedules back onto the test scheduler.
      Thread.detachNewThread {
        Task(executorPreference: scheduler) {
          try await scheduler.sleep(for: .seconds(1))
          trace("slept at \(scheduler.now.ms)")
        }
      }
      #expect(scheduler.runUntil { scheduler.nextDeadline != nil && scheduler.nextDeadline! > .zero })
      scheduler.advance(by: .seconds(1))
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("a task or actor job, at virtual time 0.0 seconds, from a task hopping onto the scheduler")
      }
    }
    #expect(trace.values == ["slept at 1000"])
  }

  @Test("runUntil gives up after its bound and reports what is pending")
  func runUntilTimesOut() {
    let scheduler = TestScheduler()
    withKnownIssue {
      let satisfied = scheduler.runUntil(timeout: .milliseconds(50)) { false }
      #expect(!satisfied)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("runUntil timed out") }
    }
  }

  @Test("runUntil takes a huge timeout as 'as long as it takes' and a negative one as zero")
  func runUntilExtremeTimeouts() {
    let scheduler = TestScheduler()
    scheduler.execute {}
    #expect(scheduler.runUntil(timeout: .seconds(Int64.max)) { scheduler.pendingCount == 0 })
    withKnownIssue {
      #expect(!scheduler.runUntil(timeout: .seconds(-5)) { false })
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("runUntil timed out") }
    }
  }

  /// A callback that schedules itself again at once, forever.
  private static func rescheduleForever(on scheduler: TestScheduler, count: Log<Int>) {
    scheduler.execute {
      count.append(1)
      rescheduleForever(on: scheduler, count: count)
    }
  }

  @Test("run() stops runaway work at one instant and names it, instead of hanging")
  func runStopsRunawayWork() {
    let scheduler = TestScheduler(maximumJobsPerInstant: 1_000)
    let count = Log<Int>()
    Self.rescheduleForever(on: scheduler, count: count)
    withKnownIssue {
      scheduler.run()
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("stopped after running 1000 jobs at 0.0 seconds")
          && $0.rawValue.contains("1000 callback job(s)")
      }
    }
    #expect(count.values.count == 1_000)
    #expect(scheduler.pendingCount == 1)
  }

  @Test("advance(by:) stops runaway work and keeps the clock where it ran away")
  func advanceStopsRunawayWork() {
    let scheduler = TestScheduler(maximumJobsPerInstant: 500)
    let count = Log<Int>()
    scheduler.schedule(after: .seconds(1)) { Self.rescheduleForever(on: scheduler, count: count) }
    withKnownIssue {
      scheduler.advance(by: .seconds(5))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("at 1.0 seconds without the clock moving") }
    }
    #expect(scheduler.now == SchedulerInstant(offset: .seconds(1)))
    // The next call runs another bounded batch; nothing hangs.
    withKnownIssue {
      scheduler.advance(by: .seconds(1))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("without the clock moving") }
    }
  }

  @Test("a task polling with perform in a loop is stopped and named as task jobs")
  func pollingTaskIsStopped() {
    let scheduler = TestScheduler(maximumJobsPerInstant: 1_000)
    let task = Task(executorPreference: scheduler) {
      while true { _ = try await scheduler.perform { 1 } }
    }
    withKnownIssue {
      scheduler.run()
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("task or actor job(s)") }
    }
    task.cancel()
    scheduler.run()
    #expect(scheduler.pendingCount == 0)
  }

  @Test("a legitimate amount of work at one instant, below the bound, runs in full")
  func workBelowTheBoundRuns() {
    let scheduler = TestScheduler(maximumJobsPerInstant: 1_000)
    let count = Atomic<Int>(0)
    for _ in 0..<999 { scheduler.execute { count.wrappingAdd(1, ordering: .relaxed) } }
    scheduler.schedule(after: .seconds(1)) {
      for _ in 0..<999 { scheduler.execute { count.wrappingAdd(1, ordering: .relaxed) } }
    }
    scheduler.run()
    #expect(count.load(ordering: .relaxed) == 1_998)
  }

  @Test("a dropped scheduler is freed with its pending timers and everything they captured")
  func droppedSchedulerFreesItsTimers() {
    let counter = LifetimeCounter()
    weak var weakScheduler: TestScheduler?
    var kept: ScheduledAction?
    do {
      let scheduler = TestScheduler()
      weakScheduler = scheduler
      for _ in 0..<200 {
        let token = counter.make()
        scheduler.schedule(after: .seconds(1)) { withExtendedLifetime(token) {} }
      }
      let token = counter.make()
      kept = scheduler.scheduleRepeating(startingAt: .zero, every: .seconds(1)) { withExtendedLifetime(token) {} }
      scheduler.advance(by: .milliseconds(500))
      #expect(counter.count == 201)
    }
    #expect(weakScheduler == nil)
    // Only the closure of the handle still held is alive; disposing it (after its scheduler is gone)
    // releases that too.
    #expect(counter.count == 1)
    kept?.dispose()
    #expect(kept?.isDisposed == true)
    #expect(counter.count == 0)
  }

  @Test("timers and sleeps due at distantFuture never fire, not even under run() or step()")
  func distantFutureNeverFires() async {
    let scheduler = TestScheduler()
    scheduler.schedule(at: .distantFuture) { Issue.record("fired") }
    scheduler.schedule(after: .seconds(Int64.max)) { Issue.record("fired") }
    let sleeper = Task(executorPreference: scheduler) {
      try await scheduler.sleep(until: .distantFuture)
    }
    scheduler.run()
    #expect(scheduler.step() == false)
    scheduler.stepAll()
    #expect(scheduler.now == .zero)
    #expect(scheduler.pendingCount == 3)
    sleeper.cancel()
    scheduler.run()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(scheduler.pendingCount == 2)
  }
}
