import AppPatterns
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Dispatch
import Synchronization
import Testing

@testable import AsyncSchedulers

/// `DispatchSource` timers made by a capturing scope's code, on its virtual clock (see
/// `ScopeTimerSources`).
@Suite("DispatchSource timers in a capturing scope")
struct ScopeTimerSourceTests {
  /// A timer source made by the test's code on a queue of its own, logging the virtual instant of each
  /// fire its handler runs at.
  private func timerRecordingFires(queue label: String) throws -> (any DispatchSourceTimer, Log<SchedulerInstant>) {
    let scheduler = try #require(TestScheduler.current)
    let fired = Log<SchedulerInstant>()
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: label))
    timer.setEventHandler { fired.append(scheduler.now) }
    return (timer, fired)
  }

  @Test("a repeating DispatchSource poller polls at each interval of virtual time until it is stopped", .virtualTime)
  func pollerPollsOnVirtualTime() async throws {
    let scheduler = try #require(TestScheduler.current)
    let polls = Log<SchedulerInstant>()
    let poller = SourcePoller(interval: 1) { polls.append(scheduler.now) }
    poller.start()
    try await Task.sleep(for: .milliseconds(3_500))
    poller.stop()
    // Each handler ran at its own tick: the clock waited for it (in flight on the poller's queue).
    #expect(polls.values == [1, 2, 3].map { .zero.advanced(by: .seconds($0)) })
    #expect(scheduler.now == .zero.advanced(by: .milliseconds(3_500)))
    #expect(scheduler.pendingCount == 0, "a cancelled source leaves no timer on the clock")
  }

  @Test("a one-shot timer source fires once, at its deadline, with no real time spent", .virtualTime)
  func oneShotFiresOnce() async throws {
    let scheduler = try #require(TestScheduler.current)
    let real = realUptimeNanoseconds()
    let fired = Log<SchedulerInstant>()
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "one-shot"))
    timer.setEventHandler { fired.append(scheduler.now) }
    timer.schedule(deadline: .now() + 600)
    timer.resume()
    try await Task.sleep(for: .seconds(900))
    #expect(fired.values == [.zero.advanced(by: .seconds(600))])
    #expect(realUptimeNanoseconds() - real < 60_000_000_000, "ten virtual minutes take no real minute")
    timer.cancel()
  }

  @MainActor
  @Test("a main-queue timer source runs its handler on the main queue, in order with main-actor work", .virtualTime)
  func mainQueueSourceRunsOnTheMainQueue() async throws {
    let order = Log<String>()
    let timer = DispatchSource.makeTimerSource(queue: .main)
    timer.setEventHandler {
      dispatchPrecondition(condition: .onQueue(.main))
      order.append("tick")
    }
    timer.schedule(deadline: .now() + 1, repeating: 1)
    timer.resume()
    try await Task.sleep(for: .milliseconds(1_500))
    order.append("main actor at 1.5 s")
    try await Task.sleep(for: .seconds(1))
    order.append("main actor at 2.5 s")
    timer.cancel()
    #expect(order.values == ["tick", "main actor at 1.5 s", "tick", "main actor at 2.5 s"])
  }

  @Test("a suspended source delivers nothing, then once on resume for the fires it missed", .virtualTime)
  func suspendedSourceCoalescesItsFires() async throws {
    let (timer, fired) = try timerRecordingFires(queue: "suspended")
    timer.schedule(deadline: .now() + 1, repeating: 1)
    timer.resume()
    try await Task.sleep(for: .milliseconds(1_500))
    timer.suspend()
    try await Task.sleep(for: .seconds(3))  // Fires at 2, 3 and 4 s: kept, not delivered.
    #expect(fired.values == [.zero.advanced(by: .seconds(1))])
    timer.resume()  // At 4.5 s: the kept fire is delivered once.
    try await Task.sleep(for: .seconds(1))  // And the 5 s tick as usual.
    timer.cancel()
    #expect(fired.values == [1_000, 4_500, 5_000].map { .zero.advanced(by: .milliseconds($0)) })
  }

  @Test("a source not resumed yet delivers nothing until it is", .virtualTime)
  func inactiveSourceWaitsForResume() async throws {
    let (timer, fired) = try timerRecordingFires(queue: "inactive")
    timer.schedule(deadline: .now() + 1)
    try await Task.sleep(for: .seconds(2))
    #expect(fired.values.isEmpty)
    timer.activate()
    try await Task.sleep(for: .seconds(1))
    timer.cancel()
    #expect(fired.values == [.zero.advanced(by: .seconds(2))])
  }

  @Test("scheduling again replaces the previous schedule", .virtualTime)
  func rescheduleReplaces() async throws {
    let (timer, fired) = try timerRecordingFires(queue: "rescheduled")
    timer.schedule(deadline: .now() + 1, repeating: 1)
    timer.resume()
    try await Task.sleep(for: .milliseconds(1_500))
    timer.schedule(deadline: .now() + 5)
    try await Task.sleep(for: .seconds(10))
    timer.cancel()
    #expect(fired.values == [1_000, 6_500].map { .zero.advanced(by: .milliseconds($0)) })
  }

  @Test("a cancelled source delivers nothing more and leaves nothing on the clock", .virtualTime)
  func cancelEndsDeliveries() async throws {
    let scheduler = try #require(TestScheduler.current)
    let events = Log<String>()
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "cancelled"))
    timer.setEventHandler { events.append("tick") }
    timer.schedule(deadline: .now() + 1, repeating: 1)
    timer.resume()
    try await Task.sleep(for: .milliseconds(2_500))
    timer.cancel()
    #expect(scheduler.pendingCount == 0)
    try await Task.sleep(for: .seconds(5))
    #expect(events.values == ["tick", "tick"])
    #expect(timer.isCancelled)
  }

  @Test("a source scheduled on the wall clock is reported and runs on real time")
  func wallClockScheduleIsReported() async {
    let fired = Latch()
    let made = TimerHolder()
    let issues = await IssueCapture.collecting {
      let scheduler = TestScheduler()
      await scheduler.capturingAllTasks {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "wall"))
        timer.setEventHandler { fired.signal() }
        timer.schedule(wallDeadline: .now() + 0.01)
        timer.resume()
        made.keep(timer)  // Kept alive past the scope, as an app keeps its timer.
      }
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains("a DispatchSource timer scheduled on the wall clock (wallDeadline:)") == true)
    #expect(await fired.wait(timeout: .seconds(30)), "it fired on real time")
    made.cancel()
  }

  @Test("a source made outside the scope and scheduled inside is reported and runs on real time")
  func sourceMadeOutsideIsReported() async {
    let fired = Latch()
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "made outside"))
    timer.setEventHandler { fired.signal() }
    timer.resume()
    let issues = await IssueCapture.collecting {
      let scheduler = TestScheduler()
      await scheduler.capturingAllTasks { timer.schedule(deadline: .now() + 0.01) }
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains("a DispatchSource timer made outside the scope") == true)
    #expect(await fired.wait(timeout: .seconds(30)), "it fired on real time")
    timer.cancel()
  }

  @Test("a source made and scheduled outside any scope stays on real time")
  func outsideTheScopeStaysReal() async {
    let fired = Latch()
    let start = realUptimeNanoseconds()
    let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "outside"))
    timer.setEventHandler { fired.signal() }
    timer.schedule(deadline: .now() + 0.05)
    timer.resume()
    #expect(await fired.wait(timeout: .seconds(30)))
    #expect(realUptimeNanoseconds() - start >= 50_000_000)
    timer.cancel()
  }

  @Test("a repeating source left running when the scope ends is reported as pending work")
  func runningSourceIsPendingWork() async {
    let issues = await IssueCapture.collecting {
      let scheduler = TestScheduler()
      await scheduler.capturingAllTasks {
        SourcePoller(interval: 1) {}.start()
      }
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains("pending") == true)
  }
}

/// Keeps a timer source alive past the scope that made it.
private final class TimerHolder: @unchecked Sendable {
  // Why @unchecked Sendable: `timer` is guarded by `lock`; Dispatch sources are thread-safe.
  private let lock = Mutex<Void>(())
  private var timer: (any DispatchSourceTimer)?

  func keep(_ timer: any DispatchSourceTimer) { lock.withCriticalRegion { _ in self.timer = timer } }
  func cancel() { lock.withCriticalRegion { _ in timer?.cancel() } }
}
