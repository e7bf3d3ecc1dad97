import AsyncSchedulers
import AsyncSchedulersRxBridge
import Foundation
import Testing

@Suite("schedulePeriodic emulation")
struct PeriodicEmulationTests {
  @Test("ticks fire on the grid start + period × k, threading the state")
  func grid() {
    let scheduler = HistoricalScheduler()
    let log = Log()
    let ticking = scheduler.schedulePeriodic(0, startAfter: .seconds(5), period: .seconds(10)) { state in
      log("\(state)@\(scheduler.seconds)")
      return state + 1
    }
    scheduler.advanceTo(Date(timeIntervalSince1970: 36))
    ticking.dispose()
    scheduler.start()
    #expect(log.values == ["0@5.0", "1@15.0", "2@25.0", "3@35.0"])
  }

  @Test("after a stall, the ticks it skipped are coalesced into the next grid point (no catch-up burst)")
  func coalescesAfterAStall() {
    let scheduler = HistoricalScheduler()
    let log = Log()
    let ticking = scheduler.schedulePeriodic(0, startAfter: .seconds(10), period: .seconds(10)) { state in
      log("\(state)@\(scheduler.seconds)")
      // The first tick stalls for 25 s: the points at 20 and 30 pass while it runs.
      if state == 0 { scheduler.sleep(25) }
      return state + 1
    }
    scheduler.advanceTo(Date(timeIntervalSince1970: 60))
    ticking.dispose()
    #expect(log.values == ["0@10.0", "1@40.0", "2@50.0", "3@60.0"])
  }

  @Test("a .never period ticks once; a .never start never ticks; disposing stops the ticks")
  func neverAndDispose() {
    let scheduler = HistoricalScheduler()
    let log = Log()
    _ = scheduler.schedulePeriodic("once", startAfter: .seconds(1), period: .never) { state in
      log(state)
      return state
    }
    _ = scheduler.schedulePeriodic("never", startAfter: .never, period: .seconds(1)) { state in
      log(state)
      return state
    }
    let stopped = scheduler.schedulePeriodic("stopped", startAfter: .seconds(1), period: .seconds(1)) { state in
      log(state)
      return state
    }
    stopped.dispose()
    scheduler.advanceTo(Date(timeIntervalSince1970: 100))
    #expect(log.values == ["once"])
  }

  @Test("a period of ten billion seconds, or Int.max seconds, ticks on its grid instead of trapping")
  func hugePeriods() {
    let historical = HistoricalScheduler()
    let log = Log()
    let ticking = historical.schedulePeriodic(0, startAfter: .seconds(1), period: .seconds(10_000_000_000)) { state in
      log("\(state)@\(historical.seconds)")
      return state + 1
    }
    historical.advanceTo(Date(timeIntervalSince1970: 20_000_000_002))
    ticking.dispose()
    #expect(log.values == ["0@1.0", "1@10000000001.0", "2@20000000001.0"])

    let virtual = HistoricalScheduler()
    let endless = virtual.schedulePeriodic(0, startAfter: .seconds(0), period: .seconds(Int.max)) { state in
      log("max \(state)")
      return state + 1
    }
    virtual.advanceTo(Date(timeIntervalSince1970: 1e12))
    endless.dispose()
    #expect(log.values.last == "max 0")
  }
}
