import AsyncSchedulersTestSupport
import Testing

@testable import AsyncSchedulers

/// The checks the two inline schedulers (immediate, trampoline) share: their timed forms hold the
/// calling thread, yet cancellation and `.distantFuture` must never leave a thread held for good.
enum InlineSchedulerChecks {
  /// A sleep holds its thread until its deadline, but cancelling the task ends it at once.
  static func sleepIsCancellable(on scheduler: some Scheduler) async {
    await sleepIsCancellable(on: scheduler) { try await scheduler.sleep(for: .seconds(3_600)) }
  }

  /// The same through `sleep(until:)` on a generic scheduler and on an existential one, as signal
  /// operators reach their scheduler: the type's own cancellable sleep runs, not the protocol's default.
  static func sleepUntilIsCancellableThroughTheProtocol(on scheduler: some Scheduler) async {
    await sleepIsCancellable(on: scheduler) {
      try await scheduler.sleep(until: scheduler.now.advanced(by: .seconds(3_600)))
    }
    let existential: any Scheduler = scheduler
    await sleepIsCancellable(on: scheduler) {
      try await existential.sleep(until: existential.now.advanced(by: .seconds(3_600)))
    }
  }

  private static func sleepIsCancellable(
    on scheduler: some Scheduler, _ sleep: @escaping @Sendable () async throws -> Void
  ) async {
    let started = Latch()
    let sleepEnded = Locked<ContinuousClock.Instant?>(nil)
    // On a thread of its own: the sleep holds its thread, and the cooperative pool has only as many
    // threads as cores (another test's blocked sleep beside this one would starve the cancelling task).
    let sleeper = Task(executorPreference: SerialScheduler(name: "sleep-cancel")) {
      started.signal()
      // The end of the sleep is taken on the sleeper's own thread: the test's task may wait long for a
      // cooperative thread to resume on (under ThreadSanitizer on two cores it once took 64 s), which
      // says nothing about how promptly the sleep ended.
      defer { sleepEnded.withCriticalRegion { $0 = .now } }
      // An hour: under ThreadSanitizer on two cores, the test's own task may wait minutes for a thread
      // before it gets to cancel.
      try await sleep()
    }
    while !started.isOpen { await Task.yield() }
    let start = ContinuousClock.now
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    let ended = sleepEnded.withCriticalRegion { $0 }
    #expect(
      ended.map { $0 - start < .seconds(30) } == true,
      "the sleep ended \(ended.map { $0 - start }.map { "\($0)" } ?? "never") after the cancel")
  }

  /// A sleep until `.distantFuture` lasts until cancelled; a timer there never runs, never blocks, and
  /// releases its closure when disposed.
  static func distantFutureNeverBlocks(on scheduler: some Scheduler) async {
    let sleeper = Task { try await scheduler.sleep(until: .distantFuture) }
    sleeper.cancel()
    await #expect(throws: CancellationError.self) { try await sleeper.value }
    let counter = LifetimeCounter()
    let token = counter.make()
    let handle = scheduler.schedule(at: .distantFuture, leeway: .zero) {
      withExtendedLifetime(token) { _ = Issue.record("ran") }
    }
    scheduler.execute(after: .seconds(Int64.max)) { Issue.record("ran") }
    #expect(!handle.isDisposed)
    handle.dispose()
    _ = consume token
    #expect(counter.count == 0)
  }
}
