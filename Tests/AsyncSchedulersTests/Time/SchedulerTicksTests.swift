import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers

@Suite("Scheduler.ticks")
struct SchedulerTicksTests {
  @Test("ticks a busy consumer missed are coalesced into one that returns at once, on the grid")
  func coalescing() {
    let scheduler = TestScheduler()
    let trace = Log<String>()
    Task(executorPreference: scheduler) {
      var count = 0
      for await tick in scheduler.ticks(every: .milliseconds(10)) {
        trace.append("due \(tick.offset / .milliseconds(1)) at \(scheduler.now.offset / .milliseconds(1))")
        count += 1
        if count == 4 { break }
        try? await scheduler.sleep(for: .milliseconds(25))  // busy for longer than two intervals
      }
    }
    scheduler.run()
    #expect(trace.values == ["due 10.0 at 10.0", "due 30.0 at 35.0", "due 60.0 at 60.0", "due 80.0 at 85.0"])
  }

  @Test("the sequence ends when the consuming task is cancelled, leaving nothing pending")
  func endsOnCancellation() {
    let scheduler = TestScheduler()
    let trace = Log<String>()
    let task = Task(executorPreference: scheduler) {
      for await _ in scheduler.ticks(every: .seconds(1)) { trace.append("tick") }
      trace.append("ended")
    }
    scheduler.advance(by: .seconds(2))
    task.cancel()
    scheduler.advance()
    #expect(trace.values == ["tick", "tick", "ended"])
    scheduler.expectNoPendingWork()
  }
}
