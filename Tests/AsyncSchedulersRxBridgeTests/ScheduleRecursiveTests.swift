import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTestSupport
import Foundation
import Testing

@Suite("scheduleRecursive")
struct ScheduleRecursiveTests {
  @Test("immediate recursion is flattened: 100,000 iterations on the trampoline do not grow the stack")
  func flattened() {
    let count = Locked<Int>(0)
    _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { value, recurse in
      count.withCriticalRegion { $0 = value }
      if value < 100_000 { recurse(value + 1) }
    }
    #expect(count.withCriticalRegion { $0 } == 100_000)
  }

  @Test("timed recursion reschedules with its due times; disposing stops it")
  func timed() {
    let scheduler = HistoricalScheduler()
    let log = Log()
    let recursion = scheduler.scheduleRecursive(1, dueTime: .seconds(1)) { value, recursive in
      log("\(value)@\(scheduler.seconds)")
      recursive.schedule(value + 1, dueTime: .seconds(value + 1))
    }
    scheduler.advanceTo(Date(timeIntervalSince1970: 10))
    #expect(log.values == ["1@1.0", "2@3.0", "3@6.0", "4@10.0"])
    recursion.dispose()
    scheduler.start()
    #expect(log.values.count == 4)
  }

  @Test("disposing from inside the action stops the recursion")
  func disposeInside() {
    let scheduler = HistoricalScheduler()
    let log = Log()
    _ = scheduler.scheduleRecursive(1, dueTime: .seconds(1)) { value, recursive in
      log("\(value)")
      recursive.schedule(value + 1)
      if value == 3 { recursive.dispose() }
    }
    scheduler.start()
    #expect(log.values == ["1", "2", "3"])
  }
}

