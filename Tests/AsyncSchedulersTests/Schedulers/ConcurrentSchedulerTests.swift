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

extension ConcurrentSchedulerTests {
  @Test(
    "a repeating timer whose first run overruns gets one catch-up run at once, then its grid, as on a serial scheduler")
  func repeatingOverrunCatchesUp() async {
    let scheduler = ConcurrentScheduler(maxConcurrentJobs: 2)
    let witness = SerialScheduler(name: "witness")
    let period = Duration.milliseconds(200)
    let starts = Log<SchedulerInstant>()
    let firstEnded = Locked<SchedulerInstant?>(nil)
    let witnessTicks = Atomic<Int>(0)
    let thirdWitnessTick = DispatchSemaphore(value: 0)
    let done = Latch()
    let count = Mutex(0)
    // The first run lasts until a witness timer with the same period, half a period off the timer's
    // grid, has ticked three times, so it ends between two grid points: without a catch-up run, the
    // next run would wait about half a period.
    let witnessTimer = witness.scheduleRepeating(startingAt: witness.now.advanced(by: period * 1.5), every: period) {
      if witnessTicks.wrappingAdd(1, ordering: .relaxed).newValue == 3 { thirdWitnessTick.signal() }
    }
    let timer = scheduler.scheduleRepeating(every: period) {
      starts.append(scheduler.now)
      let run = count.withCriticalRegion { count -> Int in
        count += 1
        return count
      }
      if run == 1 {
        _ = thirdWitnessTick.wait(timeout: .now() + 30)
        firstEnded.withCriticalRegion { $0 = scheduler.now }
      }
      if run == 3 { done.signal() }
    }
    #expect(await done.wait(timeout: .seconds(30)))
    timer.dispose()
    witnessTimer.dispose()
    let times = starts.values
    let ended = firstEnded.withCriticalRegion { $0 }
    #expect(times.count >= 2)
    if times.count >= 2, let ended {
      #expect(
        ended.duration(to: times[1]) < period / 4,
        "the run after the overrun started \(ended.duration(to: times[1])) after it ended (runs at \(times))")
    }
  }
}
