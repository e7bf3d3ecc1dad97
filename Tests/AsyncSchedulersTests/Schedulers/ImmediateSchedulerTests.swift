import AsyncSchedulers
import AsyncSchedulersTestSupport
import Testing

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
  func sleepIsCancellable() async {
    let started = Latch()
    // On a thread of its own: the sleep holds its thread, and the cooperative pool has only as many
    // threads as cores (another test's blocked sleep beside this one would starve the cancelling task).
    let sleeper = Task(executorPreference: SerialScheduler(name: "sleep-cancel")) {
      started.signal()
      // An hour: under ThreadSanitizer on two cores, the test's own task may wait minutes for a thread
      // before it gets to cancel.
      try await ImmediateScheduler.shared.sleep(for: .seconds(3_600))
    }
    while !started.isOpen { await Task.yield() }
    let start = ContinuousClock.now
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    #expect(ContinuousClock.now - start < .seconds(30))
  }

  @Test("a sleep until distantFuture lasts until cancelled, and a timer there never runs and never blocks")
  func distantFuture() async {
    let sleeper = Task { try await ImmediateScheduler.shared.sleep(until: .distantFuture) }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    let counter = LifetimeCounter()
    let token = counter.make()
    let handle = ImmediateScheduler.shared.schedule(at: .distantFuture) {
      withExtendedLifetime(token) { _ = Issue.record("ran") }
    }
    ImmediateScheduler.shared.execute(after: .seconds(Int64.max)) { Issue.record("ran") }
    #expect(!handle.isDisposed)
    handle.dispose()
    _ = consume token
    #expect(counter.count == 0)
  }
}
