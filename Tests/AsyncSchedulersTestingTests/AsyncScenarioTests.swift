import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import AsyncSchedulers

@Suite("TestScheduler async scenarios")
struct AsyncScenarioTests {
  @Test("a debounced search in an actor bound to the scheduler searches only after a 300 ms pause")
  func debouncedSearch() {
    #expect(
      Scenarios.debouncedSearch() == [
        "typed s at 0", "typed sw at 100", "typed swi at 200", "search swi at 500",
        "typed swif at 600", "typed swift at 650", "checkpoint at 949", "search swift at 950",
      ])
  }

  @Test("a task group of 100 sleeping children finishes in deadline order")
  func taskGroup() {
    let expected =
      (0..<100)
      .map { child in (child, (child * 37) % 100 + 1) }
      .sorted { $0.1 < $1.1 }
      .map { "child \($0.0) at \($0.1)" } + ["group done at 100"]
    #expect(Scenarios.taskGroupDeadlines() == expected)
  }

  @Test("async let pairs complete at the later of their two deadlines")
  func asyncLet() {
    #expect(
      Scenarios.asyncLetPairs() == [
        "fast 0 at 1000", "slow 0 at 2000", "pair slow+fast at 2000",
        "fast 1 at 3000", "slow 1 at 4000", "pair slow+fast at 4000",
      ])
  }

  @Test("an AsyncStream produced and consumed on the scheduler delivers each value at its advance")
  func stream() {
    var expected: [String] = []
    for second in 1...5 {
      expected += ["yield \(second) at \(second * 1000)", "got \(second) at \(second * 1000)"]
      if second == 5 { expected.append("finished at 5000") }
      expected.append("advanced to \(second)s")
    }
    #expect(Scenarios.asyncStream() == expected)
  }

  @Test("cancelling a sleeping task in the middle of an advance wakes it at that instant")
  func cancellation() {
    #expect(
      Scenarios.cancellationMidAdvance() == [
        "cancel at 5000", "sleeper cancelled at 5000", "other woke at 7000", "pending 0 at 20000",
      ])
  }

  @Test("actor re-entrancy across an await interleaves exactly")
  func reentrancy() {
    #expect(
      Scenarios.actorReentrancy() == [
        "load k #1 starts at 0",
        "load k #2 starts at 50",
        "load k #1 ends at 100, cached before: false",
        "caller 0 got 1 at 100",
        // Both wake at 150; the third caller's sleep was scheduled first (at 0), so it runs first.
        "hit k at 150",
        "caller 150 got 1 at 150",
        "load k #2 ends at 150, cached before: true",
        "caller 50 got 2 at 150",
      ])
  }

  @Test("a repeating ticker is consumed for exactly 10 ticks on its grid")
  func ticker() {
    let ticks = (1...10).map { "tick \($0) due \($0 * 250) at \($0 * 250)" }
    #expect(Scenarios.ticker() == ticks + ["stopped at 2500", "pending 0"])
  }

  @Test("the whole scenario suite gives identical traces 1,000 times while another thread spins")
  func determinism() async {
    // The loop blocks for seconds: it runs on a thread of its own, not on the cooperative pool that
    // the other tests' tasks need. It and the spinner compete at a lowered priority, so they do not
    // take both cores from the tests running in parallel.
    let mismatches = await onDedicatedThread { () -> [String] in
      lowerCurrentThreadPriority()
      let flag = SpinFlag()
      let spinnerDone = DispatchSemaphore(value: 0)
      // A plain thread, not a Dispatch worker: a spinning worker would hold one of libdispatch's pool
      // slots and starve Dispatch work of other tests running in parallel.
      Thread.detachNewThread {
        lowerCurrentThreadPriority()
        var spins = 0
        while !flag.stop.load(ordering: .acquiring) { spins &+= 1 }
        spinnerDone.signal()
      }
      defer {
        flag.stop.store(true, ordering: .releasing)
        spinnerDone.wait()
      }
      let reference = Scenarios.all.map { $0.run() }
      var mismatches: [String] = []
      // Under ThreadSanitizer a tenth of the runs: each is about twenty times slower there, and the
      // sanitized run is about races, not the count.
      for _ in 0..<(isThreadSanitized ? 100 : 1_000) {
        for (index, scenario) in Scenarios.all.enumerated() where scenario.run() != reference[index] {
          mismatches.append(scenario.name)
        }
      }
      return mismatches
    }
    #expect(mismatches.isEmpty)
  }

  @Test(
    "a one-hour virtual timeline with 10,000 timers takes well under a second of the driving thread's time",
    .enabled(if: ThreadSanitizerHooks.shared == nil, "speed is not meaningful under ThreadSanitizer"))
  func speed() {
    let scheduler = TestScheduler()
    let fired = Atomic<Int>(0)
    var generator = SplitMix(seed: 42)
    // Every job runs inline on this thread, so its CPU time is the cost; unlike wall time it does not
    // grow when a loaded machine preempts the thread.
    let started = currentThreadCPUTime()
    for _ in 0..<9_990 {
      let at = SchedulerInstant(offset: .milliseconds(Int64(generator.next() % 3_600_000)))
      scheduler.schedule(at: at) { fired.wrappingAdd(1, ordering: .relaxed) }
    }
    for index in 0..<10 {
      scheduler.scheduleRepeating(every: .seconds(60 + index)) { fired.wrappingAdd(1, ordering: .relaxed) }
    }
    scheduler.advance(by: .seconds(3600))
    let elapsed = currentThreadCPUTime() - started
    #expect(fired.load(ordering: .relaxed) >= 9_990 + 10 * 55)
    #expect(elapsed < .seconds(1))
  }
}

/// A flag a spinning thread watches.
final class SpinFlag: Sendable {
  let stop = Atomic<Bool>(false)
}
