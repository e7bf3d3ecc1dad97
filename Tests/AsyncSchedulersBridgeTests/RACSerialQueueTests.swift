import AsyncSchedulers
import AsyncSchedulersBridge
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Dispatch
import Synchronization
import Testing

@Suite("RAC serial queue")
struct RACSerialQueueTests {
  @Test("a RACScheduler over a concurrent core runs blocks one at a time, in order per producer, from 8 threads")
  func concurrentCoreIsSerialized() async {
    let core = ConcurrentScheduler(maxConcurrentJobs: 4)
    let scheduler = RACScheduler(core: core, name: "serialized")
    let running = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let order = Mutex<[Int: [Int]]>([:])
    let producers = 8
    let perProducer = 500
    let done = Latch(count: producers * perProducer + producers)
    for producer in 0..<producers {
      DispatchQueue.global().async {
        for index in 0..<perProducer {
          scheduler.schedule {
            if running.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue > 1 {
              overlaps.wrappingAdd(1, ordering: .relaxed)
            }
            order.withCriticalRegion { $0[producer, default: []].append(index) }
            running.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            done.signal()
          }
        }
        // A timer block joins the same serial queue.
        scheduler.afterDelay(0.001) {
          if running.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue > 1 {
            overlaps.wrappingAdd(1, ordering: .relaxed)
          }
          running.wrappingSubtract(1, ordering: .acquiringAndReleasing)
          done.signal()
        }
      }
    }
    #expect(await done.wait())
    #expect(overlaps.load(ordering: .relaxed) == 0)
    #expect(order.withCriticalRegion { $0.values.allSatisfy { $0 == Array(0..<perProducer) } })
  }

  @Test("a repeating block over a concurrent core that overruns twenty periods runs once more, not twenty times")
  func repeatingOverrunCoalesces() async throws {
    let scheduler = RACScheduler(core: ConcurrentScheduler(maxConcurrentJobs: 2), name: "serialized.repeating")
    let period = 0.02
    let runs = Mutex<[ContinuousClock.Instant]>([])
    let firstRunEnded = Latch()
    let fiveMoreRuns = Latch(count: 5)
    let released = Mutex<ContinuousClock.Instant?>(nil)
    // A witness timer with the same period, on a scheduler of its own, says when twenty periods have
    // passed: the first run blocks on that event instead of a fixed sleep.
    let witness = SerialScheduler(name: "serialized.repeating.witness")
    let witnessTicks = Atomic<Int>(0)
    let twentyPeriods = DispatchSemaphore(value: 0)
    let witnessTimer = witness.scheduleRepeating(startingAt: witness.now, every: .seconds(period)) {
      if witnessTicks.add(1, ordering: .relaxed).newValue == 20 { twentyPeriods.signal() }
    }
    let timer = scheduler.after(Date(), repeatingEvery: period, withLeeway: 0) {
      let isFirst = runs.withCriticalRegion { runs in
        runs.append(.now)
        return runs.count == 1
      }
      guard isFirst else {
        fiveMoreRuns.signal()
        return
      }
      // Twenty periods pass while the first run blocks its serial queue (a thread of the core, not
      // the test's). Before the fix every one of those ticks queued a run: a burst of twenty after it.
      _ = twentyPeriods.wait(timeout: .now() + 600)
      witnessTimer.dispose()
      released.withCriticalRegion { $0 = .now }
      firstRunEnded.signal()
    }
    #expect(await firstRunEnded.wait())
    #expect(await fiveMoreRuns.wait())
    timer?.dispose()
    let stopped = ContinuousClock.now
    let afterRelease = runs.withCriticalRegion { $0.count - 1 }
    // One run for the coalesced ticks, then at most one per period that started after the release
    // (plus one for a tick on the boundary), however late this task woke up.
    // Measured from the end of the overrun, not from when this task resumed (late on a loaded machine).
    let end = try #require(released.withCriticalRegion { $0 })
    let periodsAfterRelease = Int(((stopped - end) / .seconds(period)).rounded(.up))
    #expect(
      afterRelease <= 1 + periodsAfterRelease + 1,
      "\(afterRelease) runs in \(periodsAfterRelease) periods after the overrun")
  }

  @Test("current() inside a serialized block is the RAC scheduler")
  func currentInsideSerializedBlock() async {
    let scheduler = RACScheduler(core: ConcurrentScheduler(maxConcurrentJobs: 2), name: "serialized.current")
    let done = Latch()
    let seen = Log<Bool>()
    scheduler.schedule {
      seen.append(RACScheduler.current() === scheduler)
      done.signal()
    }
    #expect(await done.wait())
    #expect(seen.values == [true])
  }
}
