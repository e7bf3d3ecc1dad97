import AsyncSchedulers
import AsyncSchedulersTestSupport
import Dispatch
import Synchronization
import Testing

@Suite("ConcurrentScheduler")
struct ConcurrentSchedulerTests {
  @Test("never runs more jobs at once than its limit, and does run them in parallel", arguments: [1, 2, 3])
  func limitIsNeverExceeded(limit: Int) async {
    let scheduler = ConcurrentScheduler(maxConcurrentJobs: limit)
    let running = Atomic<Int>(0)
    let peak = Atomic<Int>(0)
    let done = Latch(count: 400)
    for _ in 0..<400 {
      scheduler.schedule {
        let now = running.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        var seen = peak.load(ordering: .relaxed)
        while now > seen {
          let (exchanged, original) = peak.compareExchange(expected: seen, desired: now, ordering: .relaxed)
          if exchanged { break }
          seen = original
        }
        // Hold the slot a little so that jobs overlap when they may.
        var spin = 0
        for index in 0..<20_000 { spin &+= index }
        _ = spin
        running.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        done.signal()
      }
    }
    #expect(await done.wait())
    #expect(peak.load(ordering: .relaxed) <= limit)
    #expect(scheduler.maxConcurrentJobs == limit)
  }

  @Test("tasks preferring it run on it, and timers fire there")
  func tasksAndTimers() async {
    let scheduler = ConcurrentScheduler(maxConcurrentJobs: 2)
    let onScheduler = await Task(executorPreference: scheduler) {
      Schedulers.current === scheduler
    }.value
    #expect(onScheduler)
    let fired = Latch()
    scheduler.schedule(after: .milliseconds(2)) {
      if Schedulers.current === scheduler { fired.signal() }
    }
    #expect(await fired.wait())
    let slept = Latch()
    Task(executorPreference: scheduler) {
      try await scheduler.sleep(for: .milliseconds(1))
      slept.signal()
    }
    #expect(await slept.wait())
  }
}
