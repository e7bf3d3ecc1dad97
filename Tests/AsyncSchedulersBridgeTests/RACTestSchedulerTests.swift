import AsyncSchedulers
import AsyncSchedulersBridge
import AsyncSchedulersBridgeTesting
import AsyncSchedulersTestSupport
import Foundation
import Testing

@Suite("RACTestScheduler")
struct RACTestSchedulerTests {
  @Test("schedule blocks run before any dated block, first in first out; dated blocks in date order")
  func order() {
    let scheduler = RACTestScheduler()
    let log = Log<String>()
    let now = Date()
    scheduler.after(now.addingTimeInterval(2)) { log.append("dated 2") }
    scheduler.after(now.addingTimeInterval(1)) { log.append("dated 1") }
    scheduler.after(now.addingTimeInterval(1)) { log.append("dated 1 again") }
    scheduler.schedule { log.append("plain 1") }
    scheduler.schedule { log.append("plain 2") }
    scheduler.step()
    #expect(log.values == ["plain 1"])
    scheduler.step(2)
    #expect(log.values == ["plain 1", "plain 2", "dated 1"])
    scheduler.stepAll()
    #expect(log.values == ["plain 1", "plain 2", "dated 1", "dated 1 again", "dated 2"])
  }

  @Test(
    "afterDelay counts from the virtual now: a block at second 1 scheduling 0.5 s later runs at 1.5, before one due at 2"
  )
  func afterDelayFromVirtualNow() {
    let scheduler = RACTestScheduler()
    let log = Log<String>()
    scheduler.afterDelay(2) { log.append("2: \(scheduler.testScheduler.now)") }
    scheduler.afterDelay(1) {
      // Measured on the real clock, 0.5 s from now would be long past virtual second 1.
      scheduler.afterDelay(0.5) { log.append("1.5: \(scheduler.testScheduler.now)") }
    }
    scheduler.stepAll()
    #expect(log.values == ["1.5: 1.5 seconds", "2: 2.0 seconds"])
  }

  @Test("stepping an empty scheduler does nothing, and disposed blocks are skipped")
  func emptyAndDisposed() {
    let scheduler = RACTestScheduler()
    scheduler.step()
    scheduler.step(5)
    scheduler.stepAll()
    let log = Log<String>()
    scheduler.schedule { log.append("disposed") }?.dispose()
    scheduler.schedule { log.append("kept") }
    scheduler.step()
    #expect(log.values == ["kept"])
  }

  @Test(
    "a repeating block re-enqueues itself at date + interval, keeps firing when its disposable is dropped, stops when disposed"
  )
  func repeating() {
    let scheduler = RACTestScheduler()
    let log = Log<Int>()
    let start = Date()
    _ = scheduler.after(start.addingTimeInterval(1), repeatingEvery: 2, withLeeway: 0) { log.append(1) }
    scheduler.step(3)
    #expect(log.values == [1, 1, 1])
    #expect(scheduler.testScheduler.now.offset >= .seconds(5) && scheduler.testScheduler.now.offset < .seconds(6))

    let stopped = Log<Int>()
    let disposable = scheduler.after(start.addingTimeInterval(10), repeatingEvery: 1, withLeeway: 0.1) {
      stopped.append(1)
    }
    scheduler.testScheduler.advance(by: .seconds(7))
    let count = stopped.values.count
    disposable?.dispose()
    scheduler.testScheduler.advance(by: .seconds(10))
    #expect(count >= 1 && stopped.values.count == count)
  }

  @Test("current() inside a test scheduler's block is the test scheduler")
  func current() {
    let scheduler = RACTestScheduler()
    let log = Log<Bool>()
    scheduler.schedule { log.append(RACScheduler.current() === scheduler) }
    scheduler.stepAll()
    #expect(log.values == [true])
  }

  @Test("stepAll stops a recursive block that always reschedules itself, and reports it, instead of hanging")
  func stepAllStopsEndlessRecursion() {
    let scheduler = RACTestScheduler()
    let runs = Log<Int>()
    let disposable = scheduler.scheduleRecursiveBlock { reschedule in
      runs.append(1)
      reschedule()
    }
    withKnownIssue {
      scheduler.stepAll()
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("bridged block(s) (RACScheduler or an Rx scheduler)") }
    }
    #expect(runs.values.count > 1_000)
    disposable?.dispose()
    scheduler.stepAll()
  }

  @Test("A block scheduled from a background scheduler's block, then stepped there, waits for the step: no escape")
  func blocksFromBackgroundSchedulersWaitForStep() {
    let testScheduler = RACTestScheduler()
    let background = RACScheduler()
    let log = Log<String>()
    let done = DispatchSemaphore(value: 0)
    background.schedule {
      testScheduler.schedule { log.append("immediate") }
      testScheduler.after(Date().addingTimeInterval(1)) { log.append("dated") }
      log.append("scheduled")
      testScheduler.stepAll()
      done.signal()
    }
    #expect(done.wait(timeout: .now() + 600) == .success)
    #expect(log.values == ["scheduled", "immediate", "dated"])
  }
}
