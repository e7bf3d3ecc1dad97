import AsyncSchedulers
import AsyncSchedulersRxBridge
import Dispatch
import Testing

@Suite("MainScheduler")
@MainActor
struct MainSchedulerTests {
  @Test("on the main actor and idle, schedule runs inline; with work queued, it queues behind it")
  func inlineWhenIdle() async {
    let scheduler = MainScheduler()
    let log = Log()
    _ = scheduler.schedule(()) { _ in
      log("inline")
      return Disposables.create()
    }
    log("after inline")
    _ = scheduler.scheduleRelative((), dueTime: .nanoseconds(0)) { _ in
      log("timer")
      return Disposables.create()
    }
    await drain(MainScheduler.asyncInstance)
    #expect(Array(log.values.prefix(2)) == ["inline", "after inline"])
  }

  @Test("the pending count is per instance: another instance's queued work does not stop inline runs")
  func perInstanceCount() async {
    let busy = MainScheduler()
    let other = MainScheduler()
    let log = Log()
    // Queue work on `busy` from off the main actor (this test holds the main actor meanwhile), so it is
    // pending when `other` schedules.
    DispatchQueue.global().sync {
      _ = busy.schedule(()) { _ in
        log("busy")
        return Disposables.create()
      }
    }
    _ = other.schedule(()) { _ in
      log("other inline")
      return Disposables.create()
    }
    // `busy` has work queued: its next action queues behind it, even on the main actor.
    _ = busy.schedule(()) { _ in
      log("busy second")
      return Disposables.create()
    }
    log("after")
    await drain(MainScheduler.asyncInstance)
    #expect(log.values == ["other inline", "after", "busy", "busy second"])
  }

  @Test("asyncInstance never runs inline")
  func asyncInstanceQueues() async {
    let log = Log()
    _ = MainScheduler.asyncInstance.schedule(()) { _ in
      log("queued")
      return Disposables.create()
    }
    log("after")
    await drain(MainScheduler.asyncInstance)
    #expect(log.values == ["after", "queued"])
  }

  @Test("ConcurrentMainScheduler runs inline whenever called on the main actor")
  func concurrentMain() async {
    let log = Log()
    _ = MainScheduler.asyncInstance.schedule(()) { _ in
      log("queued first")
      return Disposables.create()
    }
    _ = ConcurrentMainScheduler.instance.schedule(()) { _ in
      log("inline anyway")
      return Disposables.create()
    }
    await drain(MainScheduler.asyncInstance)
    #expect(log.values == ["inline anyway", "queued first"])
    MainScheduler.ensureExecutingOnScheduler()
  }

  @Test("ensureExecutingOnScheduler stops the program off the main actor, with the message given")
  func ensureOffMain() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      DispatchQueue.global().sync { MainScheduler.ensureExecutingOnScheduler(errorMessage: "not on main") }
    }
    #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("not on main"))
  }
}
