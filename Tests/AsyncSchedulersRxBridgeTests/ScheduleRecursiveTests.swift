import AsyncSchedulersRxBridge
import AsyncSchedulersTestSupport
import Dispatch
import Foundation
import Testing

@testable import AsyncSchedulers

@Suite("scheduleRecursive")
struct ScheduleRecursiveTests {
  @Test(
    "immediate recursion is flattened: 100,000 iterations on the trampoline run without nesting",
    // Under ThreadSanitizer the low-priority thread can wait minutes for a core while the whole suite
    // runs; the plain run keeps the one-minute bound that catches a quadratic recursion (274 s).
    .timeLimit(ThreadSanitizerHooks.shared == nil ? .minutes(1) : .minutes(5)))
  func flattened() async {
    // A recursion that nested calls, or built a chain of objects released recursively (as a closure
    // kept in a generic Mutex did: 274 s and a stack overflow), fails here. Under ThreadSanitizer,
    // which makes every lock and allocation of the 100,000 steps far slower, it runs 10,000.
    let steps = ThreadSanitizerHooks.shared == nil ? 100_000 : 10_000
    // On a thread of its own: a long loop on a Dispatch thread would hold one of the threads the
    // cooperative pool shares with Dispatch.
    let count = await onDedicatedThread {
      lowerCurrentThreadPriority()
      let count = Locked<Int>(0)
      let recursion = CurrentThreadScheduler.instance.scheduleRecursive(0) { value, recurse in
        count.withCriticalRegion { $0 = value }
        if value < steps { recurse(value + 1) }
      }
      _ = recursion
      return count.withCriticalRegion { $0 }
    }
    #expect(count == steps)
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
