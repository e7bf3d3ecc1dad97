import AsyncSchedulersTestSupport
import Testing

@testable import AsyncSchedulers

@Suite("ImmediateScheduler")
struct ImmediateSchedulerTests {
  @Test("runs actions inline and returns a finished handle")
  func inline() {
    let log = Log<Int>()
    let handle = ImmediateScheduler.shared.schedule { log.append(1) }
    log.append(2)
    #expect(log.values == [1, 2])
    #expect(handle.isDisposed)
  }

  @Test("does not set the current scheduler: the action sees the caller's")
  func inheritsCurrent() {
    #expect(Schedulers.current == nil)
    ImmediateScheduler.shared.schedule { #expect(Schedulers.current == nil) }
  }

  @Test("a timed action blocks the caller until its deadline, then runs inline")
  func timedBlocks() {
    let scheduler = ImmediateScheduler.shared
    let deadline = scheduler.now.advanced(by: .milliseconds(5))
    let log = Log<Bool>()
    scheduler.schedule(at: deadline) { log.append(scheduler.now >= deadline) }
    #expect(log.values == [true])
  }

  @Test("a repeating schedule is a precondition failure")
  func repeatingFails() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      ImmediateScheduler.shared.scheduleRepeating(every: .seconds(1)) {}
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "ImmediateScheduler.scheduleRepeating: cannot run repeating work, the call would never return"))
  }

  @Test("a task preferring it starts on the calling thread")
  func taskExecutor() async {
    let value = await Task(executorPreference: ImmediateScheduler.shared) { 3 }.value
    #expect(value == 3)
  }

  @Test("a sleep on it holds the thread until its deadline, but cancelling the task ends it at once")
  func sleepIsCancellable() async { await InlineSchedulerChecks.sleepIsCancellable(on: ImmediateScheduler.shared) }

  @Test("a sleep until a deadline reached through any Scheduler or some Scheduler is still cancelled at once")
  func sleepUntilThroughTheProtocol() async {
    await InlineSchedulerChecks.sleepUntilIsCancellableThroughTheProtocol(on: ImmediateScheduler.shared)
  }

  @Test("a sleep until distantFuture lasts until cancelled, and a timer there never runs and never blocks")
  func distantFuture() async { await InlineSchedulerChecks.distantFutureNeverBlocks(on: ImmediateScheduler.shared) }
}
