import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Foundation
import Synchronization
import Testing

@testable import AsyncSchedulers

@Suite("ScheduledAction")
struct ScheduledActionTests {
  @Test("a job disposed before it starts never runs and releases its captures at once")
  func disposedOneShot() {
    let scheduler = TestScheduler()
    let counter = LifetimeCounter()
    let ran = Atomic<Bool>(false)
    let handle: ScheduledAction = {
      let token = counter.make()
      return scheduler.schedule(after: .seconds(10)) {
        _ = token
        ran.store(true, ordering: .relaxed)
      }
    }()
    #expect(counter.count == 1)
    handle.dispose()
    #expect(counter.count == 0)
    #expect(scheduler.pendingCount == 0)
    scheduler.advance(by: .seconds(20))
    let didRun = ran.load(ordering: .relaxed)
    #expect(!didRun)
  }

  @Test("a queued callback disposed before it starts never runs and releases its captures at once")
  func disposedReady() {
    let scheduler = TestScheduler()
    let counter = LifetimeCounter()
    let handle: ScheduledAction = {
      let token = counter.make()
      return scheduler.schedule { _ = token }
    }()
    handle.dispose()
    #expect(counter.count == 0)
    scheduler.run()
  }

  @Test("a one-shot job releases its closure as soon as it has run, and is then disposed")
  func releasesAfterRun() {
    let scheduler = TestScheduler()
    let counter = LifetimeCounter()
    let handle: ScheduledAction = {
      let token = counter.make()
      return scheduler.schedule { _ = token }
    }()
    scheduler.run()
    #expect(counter.count == 0)
    #expect(handle.isDisposed)
  }

  @Test("disposing a running job does not interrupt it")
  func disposeWhileRunning() {
    let scheduler = TestScheduler()
    let log = Log<String>()
    let holder = Log<ScheduledAction>()
    let handle = scheduler.schedule {
      holder.values.first?.dispose()
      log.append("still running")
    }
    holder.append(handle)
    scheduler.run()
    #expect(log.values == ["still running"])
  }

  @Test("a repeating timer keeps firing when its handle is dropped, and a disposed one releases its captures")
  func repeatingTimerLifetime() {
    let scheduler = TestScheduler()
    let ticks = Atomic<Int>(0)
    do {
      scheduler.scheduleRepeating(every: .seconds(1)) { ticks.wrappingAdd(1, ordering: .relaxed) }
    }
    scheduler.advance(by: .seconds(3))
    #expect(ticks.load(ordering: .relaxed) == 3)

    let counter = LifetimeCounter()
    let handle: ScheduledAction = {
      let token = counter.make()
      return scheduler.scheduleRepeating(every: .seconds(1)) { _ = token }
    }()
    scheduler.advance(by: .seconds(2))
    handle.dispose()
    #expect(counter.count == 0)
  }

  @Test("a repeating timer that disposes itself while running finishes the run, then releases its captures")
  func repeatingDisposesItself() {
    let scheduler = TestScheduler()
    let counter = LifetimeCounter()
    let holder = Log<ScheduledAction>()
    let log = Log<String>()
    let handle: ScheduledAction = {
      let token = counter.make()
      return scheduler.scheduleRepeating(every: .seconds(1)) {
        _ = token
        holder.values.first?.dispose()
        log.append("tick at \(scheduler.now)")
      }
    }()
    holder.append(handle)
    scheduler.advance(by: .seconds(5))
    #expect(log.values == ["tick at 1.0 seconds"])
    #expect(handle.isDisposed)
    #expect(counter.count == 0)
    #expect(scheduler.pendingCount == 0)
  }

  @Test(
    "8 threads disposing a repeating timer while it fires on a real scheduler: one effective dispose, captures released"
  )
  func repeatingDisposeRace() async {
    let counter = LifetimeCounter()
    for _ in 0..<200 {
      let scheduler = SerialScheduler()
      let fired = Latch()
      let handle: ScheduledAction = {
        let token = counter.make()
        return scheduler.scheduleRepeating(every: .microseconds(50)) {
          _ = token
          fired.signal()
        }
      }()
      #expect(await fired.wait())
      let disposers = Latch(count: 8)
      for _ in 0..<8 {
        Thread.detachNewThread {
          handle.dispose()
          disposers.signal()
        }
      }
      #expect(await disposers.wait())
      // A run in progress when the dispose won releases the body when it returns: wait for the
      // scheduler to go quiet.
      let barrier = Latch()
      scheduler.schedule { barrier.signal() }
      #expect(await barrier.wait())
      #expect(handle.isDisposed)
      #expect(scheduler.pendingTimerCount == 0)
    }
    #expect(counter.count == 0)
  }

  @Test("a cancelled sleep releases its timer and captures immediately")
  func cancelledSleepReleases() {
    let scheduler = TestScheduler()
    let counter = LifetimeCounter()
    let outcome = Log<String>()
    let task = Task(executorPreference: scheduler) {
      let token = counter.make()
      do {
        try await scheduler.sleep(for: .seconds(60))
        outcome.append("woke")
      } catch {
        outcome.append("cancelled")
      }
      _ = token
    }
    scheduler.advance()
    #expect(scheduler.pendingCount == 1)
    task.cancel()
    #expect(scheduler.pendingCount == 1)  // the timer is gone; the task's wake-up job is queued
    scheduler.advance()
    #expect(outcome.values == ["cancelled"])
    #expect(counter.count == 0)
    scheduler.expectNoPendingWork()
  }

  @Test("repeating schedules reject a non-positive interval or a negative leeway with a message")
  func badArguments() async {
    await #expect(processExitsWith: .failure) {
      SerialScheduler().scheduleRepeating(every: .zero) {}
    }
    await #expect(processExitsWith: .failure) {
      SerialScheduler().scheduleRepeating(every: .seconds(-1)) {}
    }
    await #expect(processExitsWith: .failure) {
      SerialScheduler().scheduleRepeating(every: .seconds(1), leeway: .seconds(-1)) {}
    }
  }

  @Test("a deadline in the past runs as soon as possible, and a distant one never fires")
  func pastAndDistantDeadlines() {
    let scheduler = TestScheduler(now: SchedulerInstant(offset: .seconds(10)))
    let log = Log<String>()
    scheduler.schedule(at: .zero) { log.append("past") }
    scheduler.schedule(at: .distantFuture) { log.append("never") }
    scheduler.schedule(after: .seconds(-5)) { log.append("negative delay") }
    scheduler.advance(by: .seconds(1_000_000))
    #expect(log.values == ["past", "negative delay"])
    #expect(scheduler.now == SchedulerInstant(offset: .seconds(1_000_010)))
  }
}

extension ScheduledActionTests {
  @Test("a repeating run taken off the queue while the body runs elsewhere becomes one catch-up run, not a lost one")
  func repeatingRunDequeuedWhileRunningCatchesUp() async {
    let runs = Atomic<Int>(0)
    let firstStarted = DispatchSemaphore(value: 0)
    let releaseFirst = DispatchSemaphore(value: 0)
    let timer = RepeatingTimer(owner: nil, start: .zero, interval: .milliseconds(100)) {
      if runs.wrappingAdd(1, ordering: .relaxed).newValue == 1 {
        firstStarted.signal()
        releaseFirst.wait()
      }
    }
    // A first worker runs the body; meanwhile a second worker (a concurrent scheduler's) dequeues two
    // more firings of it: they coalesce into one run, after the first, on the first worker.
    let firstWorkerDone = Latch()
    Thread {
      timer.run()
      firstWorkerDone.signal()
    }.start()
    firstStarted.wait()
    timer.run()
    timer.run()
    #expect(runs.load(ordering: .relaxed) == 1)
    releaseFirst.signal()
    #expect(await firstWorkerDone.wait(timeout: .seconds(30)))
    #expect(runs.load(ordering: .relaxed) == 2)
    timer.dispose()
    timer.run()
    #expect(runs.load(ordering: .relaxed) == 2)
  }
}
