import AsyncSchedulers
import AsyncSchedulersBridge
import AsyncSchedulersBridgeTesting
import AsyncSchedulersTestSupport
import Dispatch
import Synchronization
import Testing

@Suite("RACScheduler.scheduleRecursiveBlock")
struct RACRecursiveSchedulingTests {
  @Test("reschedule() inside the block does not recurse: the re-run happens after the block returns")
  func deferred() {
    let scheduler = RACTestScheduler()
    let runs = Atomic<Int>(0)
    let checks = Log<Int>()
    scheduler.scheduleRecursiveBlock { reschedule in
      let run = runs.wrappingAdd(1, ordering: .relaxed).newValue
      if run < 3 {
        reschedule()
        checks.append(runs.load(ordering: .relaxed))  // unchanged right after reschedule()
      }
    }
    scheduler.stepAll()
    #expect(runs.load(ordering: .relaxed) == 3)
    #expect(checks.values == [1, 2])
  }

  @Test("two reschedules in one run queue two re-runs")
  func counted() {
    let scheduler = RACTestScheduler()
    let runs = Atomic<Int>(0)
    scheduler.scheduleRecursiveBlock { reschedule in
      if runs.wrappingAdd(1, ordering: .relaxed).newValue == 1 {
        reschedule()
        reschedule()
      }
    }
    scheduler.stepAll()
    #expect(runs.load(ordering: .relaxed) == 3)
  }

  @Test("reschedule() called later from another thread reschedules then")
  func later() async {
    let scheduler = RACScheduler()
    let runs = Atomic<Int>(0)
    let done = Latch(count: 2)
    scheduler.scheduleRecursiveBlock { reschedule in
      let run = runs.wrappingAdd(1, ordering: .relaxed).newValue
      done.signal()
      if run == 1 { DispatchQueue.global().async { reschedule() } }
    }
    #expect(await done.wait())
    #expect(runs.load(ordering: .relaxed) == 2)
  }

  @Test("disposing the returned disposable before calling reschedule() stops it")
  func disposeStops() async {
    let scheduler = RACScheduler()
    let runs = Atomic<Int>(0)
    let firstRun = Latch()
    let holder = Log<@Sendable () -> Void>()
    let disposable = scheduler.scheduleRecursiveBlock { reschedule in
      runs.wrappingAdd(1, ordering: .relaxed)
      holder.append(reschedule)
      firstRun.signal()
    }
    #expect(await firstRun.wait())
    disposable?.dispose()
    holder.values.first?()
    let barrier = Latch()
    scheduler.schedule { barrier.signal() }
    #expect(await barrier.wait())
    #expect(runs.load(ordering: .relaxed) == 1)
  }

  @Test("100,000-deep recursion on the immediate scheduler completes without stack growth")
  func deepImmediate() {
    let runs = Atomic<Int>(0)
    let disposable = RACScheduler.immediate().scheduleRecursiveBlock { reschedule in
      if runs.wrappingAdd(1, ordering: .relaxed).newValue < 100_000 { reschedule() }
    }
    #expect(disposable == nil)
    #expect(runs.load(ordering: .relaxed) == 100_000)
  }
}
