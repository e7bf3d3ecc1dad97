import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers

@Suite("RepeatGrid")
struct RepeatGridTests {
  private func at(_ milliseconds: Int64) -> SchedulerInstant { SchedulerInstant(offset: .milliseconds(milliseconds)) }

  @Test("a repeating grid coalesces missed ticks and stays anchored to its start")
  func gridCoalesces() {
    var grid = RepeatGrid(start: .zero, interval: .milliseconds(10))
    #expect(grid.nextDeadline(after: .zero) == at(10))
    // Fired late, at 35 ms: the ticks due at 20 and 30 ms are coalesced into this one.
    #expect(grid.nextDeadline(after: at(35)) == at(40))
    #expect(grid.nextDeadline(after: at(40)) == at(50))
  }

  @Test("a grid anchored at distantPast gives the exact next grid point, without trapping")
  func distantPastStart() {
    let interval = Duration.milliseconds(3)
    var grid = RepeatGrid(start: .distantPast, interval: interval)
    let now = at(1_000)
    let next = grid.nextDeadline(after: now)!
    #expect(next > now)
    #expect(next.advanced(by: .zero - interval) <= now)
    #expect(SchedulerInstant.distantPast.duration(to: next).attoseconds % interval.attoseconds == 0)
  }

  @Test("the next deadline is always the first grid point after now, for random starts, intervals and instants")
  func exactForRandomInputs() async {
    let failures = await runModel { failures in
      var random = SplitMix(seed: 0x5EED_6121)
      for round in 0..<20_000 {
        // Starts anywhere on the timeline, intervals from an attosecond to centuries.
        let start = SchedulerInstant(
          offset: Duration(
            attoseconds: Int128(Int64.random(in: .min ... .max, using: &random)) * 100_000_000_000_000_000 / 4))
        let interval = Duration(
          attoseconds: Int128(UInt64.random(in: 1...(1 << 62), using: &random))
            * Int128(Int64.random(in: 1...1_000_000, using: &random)))
        let now = start.advanced(
          by: Duration(
            attoseconds: Int128(Int64.random(in: 0 ... .max, using: &random))
              * Int128(UInt32.random(in: 0 ... .max, using: &random))))
        var grid = RepeatGrid(start: start, interval: interval)
        guard let next = grid.nextDeadline(after: now) else {
          // Only a grid point beyond the end of the timeline ends a grid.
          failures.check(now.advanced(by: interval) >= .distantFuture, "round \(round)")
          continue
        }
        let fromStart = start.duration(to: next).attoseconds
        failures.check(next > now, "round \(round): \(next) is not after \(now)")
        failures.check(fromStart % interval.attoseconds == 0, "round \(round): \(next) is off the grid")
        failures.check(
          next.advanced(by: .zero - interval) <= now || next == start.advanced(by: interval),
          "round \(round): a grid point was skipped")
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  @Test("a grid whose next point is past the end of the timeline ends instead of firing in a loop")
  func endsAtTheEndOfTime() {
    var grid = RepeatGrid(start: .zero, interval: .seconds(1))
    #expect(grid.nextDeadline(after: .distantFuture) == nil)
  }

  @Test("a repeating timer started at distantPast on a test scheduler fires once now, then on its grid")
  func testSchedulerDistantPast() {
    let scheduler = TestScheduler()
    let log = Log<SchedulerInstant>()
    let timer = scheduler.scheduleRepeating(startingAt: .distantPast, every: .milliseconds(7)) {
      log.append(scheduler.now)
    }
    scheduler.advance(by: .milliseconds(20))
    timer.dispose()
    // Once at once (the missed ticks coalesced), then on the grid: every 7 ms up to 20 ms.
    let fires = log.values
    #expect(fires.first == .zero)
    #expect(fires.count >= 3)
    for instant in fires.dropFirst() {
      #expect(
        SchedulerInstant.distantPast.duration(to: instant).attoseconds % Duration.milliseconds(7).attoseconds == 0)
    }
    #expect(fires.count < 2 || fires[1] <= SchedulerInstant(offset: .milliseconds(7)))
    #expect(zip(fires.dropFirst(), fires.dropFirst(2)).allSatisfy { $0.duration(to: $1) == .milliseconds(7) })
    #expect(fires.last!.advanced(by: .milliseconds(7)) > SchedulerInstant(offset: .milliseconds(20)))
  }

  @Test("a repeating timer started at distantPast on a real scheduler fires, with no trap on its worker")
  func realSchedulerDistantPast() async {
    let scheduler = SerialScheduler(name: "grid.distantPast")
    let fired = Latch(count: 3)
    let timer = scheduler.scheduleRepeating(startingAt: .distantPast, every: .milliseconds(1)) { fired.signal() }
    #expect(await fired.wait())
    timer.dispose()
  }
}
