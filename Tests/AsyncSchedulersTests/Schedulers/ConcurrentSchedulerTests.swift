import AsyncSchedulersTestSupport
import Dispatch
import Synchronization
import Testing

@testable import AsyncSchedulers

@Suite("ConcurrentScheduler")
struct ConcurrentSchedulerTests {
  @Test("never runs more jobs at once than its limit", arguments: [1, 2, 3])
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

  @Test("with a limit of two, two jobs run at the same time")
  func runsJobsInParallel() async {
    let scheduler = ConcurrentScheduler(maxConcurrentJobs: 2)
    // A rendezvous: each job signals that it started and waits for the other. Run one at a time, the
    // first would wait for the second until the bound, and report that it never met it.
    let started = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let met = Atomic<Int>(0)
    let done = Latch(count: 2)
    scheduler.schedule {
      started.0.signal()
      if started.1.wait(timeout: .now() + 60) == .success { met.wrappingAdd(1, ordering: .relaxed) }
      done.signal()
    }
    scheduler.schedule {
      started.1.signal()
      if started.0.wait(timeout: .now() + 60) == .success { met.wrappingAdd(1, ordering: .relaxed) }
      done.signal()
    }
    #expect(await done.wait())
    #expect(met.load(ordering: .relaxed) == 2)
  }

  /// Schedules two jobs that can only finish together: each signals that it started and waits (with a
  /// bound) for the other. Returns how many met the other.
  private func rendezvous(_ schedule: (@escaping @Sendable () -> Void) -> Void) async -> Int {
    let started = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
    let met = Atomic<Int>(0)
    let done = Latch(count: 2)
    schedule {
      started.0.signal()
      if started.1.wait(timeout: .now() + 20) == .success { met.wrappingAdd(1, ordering: .relaxed) }
      done.signal()
    }
    schedule {
      started.1.signal()
      if started.0.wait(timeout: .now() + 20) == .success { met.wrappingAdd(1, ordering: .relaxed) }
      done.signal()
    }
    _ = await done.wait()
    return met.load(ordering: .relaxed)
  }

  @Test("two timers due at the same instant run at the same time")
  func timersDueTogetherRunTogether() async {
    let scheduler = ConcurrentScheduler(maxConcurrentJobs: 2)
    let deadline = scheduler.now.advanced(by: .milliseconds(20))
    #expect(await rendezvous { job in scheduler.schedule(at: deadline, job) } == 2)
  }

  @Test("two jobs scheduled while a warm worker is around run at the same time", arguments: 0..<20)
  func jobsScheduledOnAWarmSchedulerRunTogether(round: Int) async {
    let scheduler = ConcurrentScheduler(maxConcurrentJobs: 2)
    // Warm it up: a worker has just drained the queue and may be lingering.
    let warm = Latch()
    scheduler.execute { warm.signal() }
    _ = await warm.wait()
    #expect(await rendezvous { job in scheduler.execute(job) } == 2)
  }

  @Test("a limit above Int32.max means no practical limit, instead of a trap")
  func hugeLimit() async {
    let scheduler = ConcurrentScheduler(maxConcurrentJobs: .max)
    #expect(scheduler.maxConcurrentJobs == Int(Int32.max))
    #expect(await rendezvous { job in scheduler.execute(job) } == 2)
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
