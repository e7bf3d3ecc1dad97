import AsyncSchedulers
import AsyncSchedulersRxBridge
import Foundation
import Testing

@Suite("VirtualTimeScheduler")
struct VirtualTimeSchedulerTests {
  @Test("start runs work in time order, first in first out among equal times, moving the clock to each")
  func timeOrderAndFIFO() {
    let scheduler = HistoricalScheduler()
    let log = Log()
    for (name, time) in [("c", 3.0), ("a1", 1.0), ("b", 2.0), ("a2", 1.0), ("a3", 1.0)] {
      _ = scheduler.scheduleAbsoluteVirtual(name, time: Date(timeIntervalSince1970: time)) { name in
        log("\(name)@\(scheduler.seconds)")
        return Disposables.create()
      }
    }
    scheduler.start()
    #expect(log.values == ["a1@1.0", "a2@1.0", "a3@1.0", "b@2.0", "c@3.0"])
    #expect(!scheduler.isEnabled)
  }

  @Test("work scheduled while running runs in the same start, at its time; disposed work is skipped")
  func nestedAndDisposed() {
    let scheduler = HistoricalScheduler()
    let log = Log()
    let skipped = scheduler.scheduleRelative((), dueTime: .seconds(2)) { _ in
      log("skipped")
      return Disposables.create()
    }
    _ = scheduler.scheduleRelative((), dueTime: .seconds(1)) { _ in
      log("outer@\(scheduler.seconds) running: \(scheduler.isEnabled)")
      _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
        log("nested@\(scheduler.seconds)")
        return Disposables.create()
      }
      _ = scheduler.schedule(()) { _ in
        log("now@\(scheduler.seconds)")
        return Disposables.create()
      }
      return Disposables.create()
    }
    _ = scheduler.scheduleRelative((), dueTime: .never) { _ in
      log("never")
      return Disposables.create()
    }
    skipped.dispose()
    scheduler.start()
    #expect(log.values == ["outer@1.0 running: true", "now@1.0", "nested@6.0"])
  }

  @Test("advanceTo runs what is due by the target and ends at it; sleep moves the clock and runs nothing")
  func advanceAndSleep() {
    let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 100))
    let log = Log()
    for time in [101.0, 105.0, 110.0] {
      _ = scheduler.scheduleAbsoluteVirtual(time, time: Date(timeIntervalSince1970: time)) { time in
        log("\(time)@\(scheduler.seconds)")
        return Disposables.create()
      }
    }
    scheduler.advanceTo(Date(timeIntervalSince1970: 106))
    #expect(log.values == ["101.0@101.0", "105.0@105.0"])
    #expect(scheduler.seconds == 106)
    scheduler.sleep(10)
    #expect(scheduler.seconds == 116)
    #expect(log.values.count == 2)
    scheduler.start()
    #expect(log.values == ["101.0@101.0", "105.0@105.0", "110.0@116.0"])
  }

  @Test("stop inside an action ends start after that action")
  func stop() {
    let scheduler = HistoricalScheduler()
    let log = Log()
    _ = scheduler.scheduleRelative((), dueTime: .seconds(1)) { _ in
      log("first")
      scheduler.stop()
      return Disposables.create()
    }
    _ = scheduler.scheduleRelative((), dueTime: .seconds(2)) { _ in
      log("second")
      return Disposables.create()
    }
    scheduler.start()
    #expect(log.values == ["first"])
    scheduler.start()
    #expect(log.values == ["first", "second"])
  }

  @Test("adjustScheduledTime moves work, as RxTest's scheduler moves work due now one tick later")
  func adjust() {
    final class OneLater: VirtualTimeScheduler<HistoricalSchedulerTimeConverter>, @unchecked Sendable {
      override func adjustScheduledTime(_ time: Date) -> Date { time.addingTimeInterval(1) }
    }
    let scheduler = OneLater(
      initialClock: Date(timeIntervalSince1970: 0), converter: HistoricalSchedulerTimeConverter())
    let log = Log()
    _ = scheduler.schedule(()) { _ in
      log("at \(scheduler.clock.timeIntervalSince1970)")
      return Disposables.create()
    }
    scheduler.start()
    #expect(log.values == ["at 1.0"])
  }

  @Test("advancing into the past stops the program with a message")
  func advanceIntoThePast() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 10)).advanceTo(Date(timeIntervalSince1970: 5))
    }
    #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("cannot move back in time"))
  }

  @Test("sleeping backwards stops the program with a message")
  func sleepBackwards() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      HistoricalScheduler().sleep(-1)
    }
    #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("cannot move back in time"))
  }

  @Test("advanceTo from the scheduler's own work stops the program with a message")
  func reentrantAdvance() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let scheduler = HistoricalScheduler()
      _ = scheduler.schedule(()) { _ in
        scheduler.advanceTo(Date(timeIntervalSince1970: 1))
        return Disposables.create()
      }
      scheduler.start()
    }
    #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("already running"))
  }
}
