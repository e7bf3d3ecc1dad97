import AsyncSchedulersTestSupport
import Dispatch
import Testing

@testable import AsyncSchedulers

@Suite("MainActorScheduler")
struct MainActorSchedulerTests {
  @Test("the shared scheduler always runs asynchronously on the main actor")
  @MainActor
  func alwaysAsync() async {
    let log = Log<String>()
    let done = Latch()
    MainActorScheduler.shared.schedule {
      MainActor.assumeIsolated { log.append("job") }
      #expect(Schedulers.current === MainActorScheduler.shared)
      done.signal()
    }
    log.append("after schedule")
    #expect(await done.wait())
    #expect(log.values == ["after schedule", "job"])
  }

  @Test("the inline variant runs inline on the main actor when idle, and keeps order otherwise")
  @MainActor
  func inlineWhenIdle() async {
    let scheduler = MainActorScheduler(runsInlineWhenIdle: true)
    let log = Log<String>()
    scheduler.schedule { log.append("inline") }
    #expect(log.values == ["inline"])

    // Something of this instance is queued (from another thread): the next schedule must queue too.
    let queued = Latch()
    DispatchQueue.global().sync { _ = scheduler.schedule { log.append("queued first") } }
    scheduler.schedule {
      log.append("queued second")
      queued.signal()
    }
    log.append("caller continues")
    #expect(await queued.wait())
    #expect(log.values == ["inline", "caller continues", "queued first", "queued second"])
  }

  @Test("the pending count is per instance: another instance's queue does not force a hop")
  @MainActor
  func perInstance() async {
    let busy = MainActorScheduler(runsInlineWhenIdle: true)
    let idle = MainActorScheduler(runsInlineWhenIdle: true)
    let done = Latch()
    DispatchQueue.global().sync { _ = busy.schedule { done.signal() } }
    let log = Log<String>()
    idle.schedule { log.append("inline") }
    #expect(log.values == ["inline"])
    #expect(await done.wait())
  }

  @Test("nested schedules inside an inline action run after it")
  @MainActor
  func nestedInline() async {
    let scheduler = MainActorScheduler(runsInlineWhenIdle: true)
    let log = Log<String>()
    let done = Latch()
    scheduler.schedule {
      scheduler.schedule {
        log.append("nested")
        done.signal()
      }
      log.append("outer")
    }
    #expect(await done.wait())
    #expect(log.values == ["outer", "nested"])
  }

  @Test("its timers fire on the main actor, no earlier than their deadline")
  func timers() async {
    let scheduler = MainActorScheduler.shared
    let done = Latch()
    let log = Log<String>()
    let deadline = scheduler.now.advanced(by: .milliseconds(2))
    scheduler.schedule(at: deadline) {
      MainActor.assumeIsolated { log.append(scheduler.now >= deadline ? "on time, on main" : "early") }
      done.signal()
    }
    #expect(await done.wait())
    #expect(log.values == ["on time, on main"])
  }

  @Test("a task preferring it runs on the main actor")
  func taskExecutor() async {
    let onMain = await Task(executorPreference: MainActorScheduler.shared) {
      isOnMainActor()
    }.value
    #expect(onMain)
  }

  @Test("on the main actor outside any job the current scheduler is the shared main scheduler")
  @MainActor
  func currentOnMain() {
    #expect(Schedulers.current === MainActorScheduler.shared)
  }
}

private func isOnMainActor() -> Bool {
  MainActor.assumeIsolated { true }
}
