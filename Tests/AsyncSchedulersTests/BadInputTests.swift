import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers

/// The core's rows of the "Bad input" article's table that no other suite pins: each extreme
/// argument gets its stated outcome, or a precondition failure whose message names the argument and
/// the value.
@Suite("Bad input")
struct BadInputTests {
  @Test("a negative leeway counts as zero")
  func negativeLeeway() {
    let scheduler = TestScheduler()
    let log = Log<SchedulerInstant>()
    scheduler.schedule(at: SchedulerInstant(offset: .seconds(1)), leeway: .seconds(-3)) { log.append(scheduler.now) }
    scheduler.execute(at: SchedulerInstant(offset: .seconds(2)), leeway: .seconds(-3)) { log.append(scheduler.now) }
    scheduler.run()
    #expect(log.values == [SchedulerInstant(offset: .seconds(1)), SchedulerInstant(offset: .seconds(2))])
  }

  @Test("a delay of Int64.max seconds saturates at distantFuture instead of trapping, and never fires")
  func hugeDelay() async {
    let scheduler = SerialScheduler(name: "bad-input.huge-delay")
    let handle = scheduler.schedule(after: .seconds(Int64.max)) { Issue.record("fired") }
    let virtual = TestScheduler()
    virtual.schedule(after: .seconds(Int64.max)) { Issue.record("fired") }
    virtual.advance(by: .seconds(1_000_000_000))
    #expect(virtual.nextDeadline == .distantFuture)
    handle.dispose()
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test("a negative or zero sleep returns at once, without waiting for the clock")
  func negativeSleep() async throws {
    let scheduler = TestScheduler()
    let task = Task(executorPreference: scheduler) {
      try await scheduler.sleep(for: .seconds(-1))
      try await scheduler.sleep(for: .zero)
      return scheduler.now
    }
    scheduler.advance()
    #expect(try await task.value == .zero)
  }

  @Test("a repeating interval beyond the end of the timeline fires once at its start, then ends")
  func hugeInterval() {
    let scheduler = TestScheduler()
    let log = Log<SchedulerInstant>()
    let timer = scheduler.scheduleRepeating(
      startingAt: SchedulerInstant(offset: .seconds(1)), every: .seconds(Int64.max)
    ) {
      log.append(scheduler.now)
    }
    scheduler.run()
    #expect(log.values == [SchedulerInstant(offset: .seconds(1))])
    #expect(scheduler.pendingCount == 0)
    timer.dispose()
  }

  @Test("a repeating timer starting at distantFuture never fires and keeps nothing running")
  func distantFutureStart() {
    let scheduler = TestScheduler()
    let timer = scheduler.scheduleRepeating(startingAt: .distantFuture, every: .seconds(1)) { Issue.record("fired") }
    scheduler.advance(by: .seconds(1_000_000))
    #expect(scheduler.pendingCount == 1)
    timer.dispose()
    #expect(scheduler.pendingCount == 0)
  }

  @Test("ticks reject a non-positive interval or a negative leeway with a message naming it")
  func ticksPreconditions() async throws {
    let interval = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = SerialScheduler().ticks(every: .zero)
    }
    #expect(
      String(decoding: interval.standardErrorContent, as: UTF8.self).contains(
        "interval must be greater than zero (got 0.0 seconds)"))
    let leeway = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = SerialScheduler().ticks(every: .seconds(1), leeway: .seconds(-1))
    }
    #expect(
      String(decoding: leeway.standardErrorContent, as: UTF8.self).contains(
        "leeway must not be negative (got -1.0 seconds)"))
  }

  @Test("a concurrent scheduler with fewer than one job at once fails with a message naming the argument")
  func zeroWidth() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = ConcurrentScheduler(maxConcurrentJobs: 0)
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "maxConcurrentJobs must be at least 1 (got 0)"))
  }

  @Test("a test scheduler's job bound below one fails with a message naming the argument")
  func zeroJobBound() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = TestScheduler(maximumJobsPerInstant: 0)
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "maximumJobsPerInstant must be at least 1 (got 0)"))
  }

  @Test("negative step counts and maximum steps count as zero")
  func negativeCounts() {
    let scheduler = TestScheduler()
    let log = Log<Int>()
    scheduler.execute { log.append(1) }
    scheduler.step(-3)
    #expect(log.values.isEmpty)
    scheduler.schedule(after: .seconds(1)) { log.append(2) }
    withKnownIssue {
      scheduler.run(maximumSteps: -1)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("stopped after 0 timers") }
    }
    // The ready job ran; the timer was not reached.
    #expect(log.values == [1])
  }
}
