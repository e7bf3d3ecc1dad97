import AsyncSchedulers
import AsyncSchedulersTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import AsyncSchedulers

/// The queue the callbacks of these tests come from: a queue of its own (on Linux, the global queues
/// are also Swift's cooperative pool, which tests blocking threads can fill).
private let callbackQueue = DispatchQueue(label: "ScopeRulesTests callbacks", attributes: .concurrent)

/// A real callback API the scope cannot see, as a C library's: the completion handler runs on a raw
/// thread of its own after `delay` of real time (a Dispatch timer armed by the scope's code would be on
/// its virtual clock, see `ScopeDispatchTests`).
private func fetchWithCompletion(after delay: Duration, _ completion: @escaping @Sendable (Int) -> Void) {
  let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
  Thread.detachNewThread {
    Thread.sleep(forTimeInterval: seconds)
    completion(42)
  }
}

/// The async face of that API, through a continuation resumed by the raw thread.
private func fetch(after delay: Duration) async -> Int {
  await withCheckedContinuation { continuation in
    fetchWithCompletion(after: delay) { continuation.resume(returning: $0) }
  }
}

@Suite("The rules of a capturing scope")
struct ScopeRulesTests {
  @Test(
    "A task resumed by a callback from a thread the scope cannot see goes on on the scheduler, and its next sleep is virtual"
  )
  func taskResumedFromOutsideStaysOnTheClock() async {
    let scheduler = TestScheduler()
    let (onScheduler, woke) = await scheduler.capturingAllTasks {
      let task = Task {
        let value = await fetch(after: .milliseconds(20))
        let onScheduler = Schedulers.current === scheduler && value == 42
        try? await Task.sleep(for: .milliseconds(300))
        return (onScheduler, scheduler.now)
      }
      // The task awaits the real callback: wait for it to be back and asleep on the virtual clock.
      scheduler.runUntil(timeout: .seconds(30)) { scheduler.pendingCount > 0 }
      scheduler.advance(by: .milliseconds(300))
      return await task.value
    }
    #expect(onScheduler)
    #expect(woke == SchedulerInstant.zero.advanced(by: .milliseconds(300)))
  }

  @MainActor
  @Test(
    "A main-actor task resumed by a callback from a thread the scope cannot see goes on on the scope's main actor, reporting nothing"
  )
  func mainActorTaskResumedFromOutside() async {
    let scheduler = TestScheduler()
    let (value, woke) = await scheduler.capturingAllTasks {
      let task = Task { @MainActor in
        // The continuation is created on the main actor: its resumption enqueues the task there.
        let value = await withCheckedContinuation { continuation in
          fetchWithCompletion(after: .milliseconds(20)) { continuation.resume(returning: $0) }
        }
        MainActor.assertIsolated()
        try? await Task.sleep(for: .milliseconds(300))
        return (value, scheduler.now)
      }
      return await task.value
    }
    #expect(value == 42)
    #expect(woke == SchedulerInstant.zero.advanced(by: .milliseconds(300)))
    scheduler.expectNoPendingWork()
  }

  @Test("Twenty scopes that each await a real callback wait at the same time, not one after another")
  func parallelScopesAwaitingRealCallbacks() async {
    // The callbacks come, from a Dispatch thread, only once all twenty scopes are waiting for theirs
    // (or, as 0, after 60 s): scopes that waited for each other would never all wait at once. Measured
    // alone, twenty scopes awaiting a 300 ms callback each take about 0.3 s of wall time (6 s when
    // scopes took turns).
    let rendezvous = Rendezvous(expected: 20, bound: .seconds(60))
    await withTaskGroup(of: Int.self) { group in
      for _ in 0..<20 {
        group.addTask {
          // A generous stall bound: on a loaded machine, starting twenty scopes takes a while.
          await TestScheduler().capturingAllTasks(stallTimeout: .seconds(120)) { await rendezvous.arrive() }
        }
      }
      for await value in group { #expect(value == 42, "a callback came only after its bound") }
    }
  }
}

/// Callbacks that come, from a Dispatch thread, once `expected` callers wait for theirs, or (with 0)
/// after `bound`.
private final class Rendezvous: Sendable {
  private let waiting = Mutex<[CheckedContinuation<Int, Never>]>([])
  private let expected: Int

  init(expected: Int, bound: DispatchTimeInterval) {
    self.expected = expected
    callbackQueue.asyncAfter(deadline: .now() + bound) { [self] in
      let late = waiting.withCriticalRegion { waiting in
        defer { waiting = [] }
        return waiting
      }
      for continuation in late { continuation.resume(returning: 0) }
    }
  }

  func arrive() async -> Int {
    await withCheckedContinuation { continuation in
      let all = waiting.withCriticalRegion { waiting -> [CheckedContinuation<Int, Never>] in
        waiting.append(continuation)
        guard waiting.count == expected else { return [] }
        defer { waiting = [] }
        return waiting
      }
      guard !all.isEmpty else { return }
      callbackQueue.async {
        for continuation in all { continuation.resume(returning: 42) }
      }
    }
  }
}

/// Holds the calling thread for `duration` of real time (work that takes real time, queued ahead).
private func busy(for duration: Duration) {
  // On the real clock, read directly: inside a scope, ContinuousClock.now and DispatchTime.now() read
  // virtual time, which does not move while a job runs (a loop waiting for it to move never ends, as in
  // Go's synctest).
  let end = realUptimeNanoseconds() + UInt64(duration / .nanoseconds(1))
  while realUptimeNanoseconds() < end {}
}

/// The real monotonic clock, read from the C library (not through Swift's clocks or Dispatch's).
private func realUptimeNanoseconds() -> UInt64 {
  var spec = timespec()
  _ = clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

extension ScopeRulesTests {
  // Exact, or reported: a loaded machine can preempt the job that reads the clock for longer than the
  // 40 ms of work (seen with two CPU burners and the suite running), and then no window tells 950 ms
  // from 900 ms; the scope must then say so, never wake at 900 ms in silence. The one documented limit
  // (a preemption of several milliseconds inside the job reading the clock leaves the rounder wrong
  // value as the only credible one, silently) was seen in about one run in six of the plain parallel
  // suite on two cores: the scenario is tried up to three times and one attempt must be exact or told.
  // Before the deadline recovery every attempt woke at 0.91–0.92 s, so the test still fails without it.
  @MainActor
  // Not under ThreadSanitizer: its slowdown widens every job to milliseconds (949.5 ms was seen once).
  @Test(
    "A deadline sleep wakes at exactly its virtual deadline with real work queued ahead, or the test is told",
    .enabled(if: ThreadSanitizerHooks.shared == nil))
  func deadlineSleepIsExactWithWorkQueuedAhead() async {
    var silentlyWrong: [SchedulerInstant?] = []
    for _ in 0..<3 {
      let reports = Mutex(0)
      let woke = Mutex<SchedulerInstant?>(nil)
      await withKnownIssue("a loaded machine preempted the job reading the clock", isIntermittent: true) {
        let scheduler = TestScheduler()
        let instant = await scheduler.capturingAllTasks {
          let sleeper = Task { @MainActor in
            // A job that takes real time runs between the job that computes the deadline and the one
            // that hands the sleep over.
            let deadline = ContinuousClock.now + .milliseconds(950)
            Task { busy(for: .milliseconds(40)) }
            await Task.yield()
            try? await Task.sleep(until: deadline, clock: .continuous)
            return scheduler.now
          }
          return await sleeper.value
        }
        woke.withCriticalRegion { $0 = instant }
      } matching: { issue in
        let isReport = String(describing: issue).contains("real-clock deadline")
        if isReport { reports.withCriticalRegion { $0 += 1 } }
        return isReport
      }
      let instant = woke.withCriticalRegion { $0 }
      if reports.withCriticalRegion({ $0 }) > 0 || instant == SchedulerInstant.zero.advanced(by: .milliseconds(950)) {
        return
      }
      silentlyWrong.append(instant)
    }
    Issue.record("three attempts woke silently at \(silentlyWrong), not at 950 ms")
  }
}

/// A default actor whose method sleeps with a plain `Task.sleep`.
private actor Napper {
  func nap(_ duration: Duration) async -> Bool {
    (try? await Task.sleep(for: duration)) != nil
  }
}

extension ScopeRulesTests {
  @MainActor
  @Test(
    "A plain sleep in a default actor's method, called from a main-actor task after an hour of virtual time, wakes at its virtual deadline"
  )
  func sleepInDefaultActorAfterAnHour() async {
    let scheduler = TestScheduler()
    let (slept, woke) = await scheduler.capturingAllTasks {
      scheduler.advance(by: .seconds(3_600))
      let napper = Napper()
      let slept = await napper.nap(.milliseconds(300))
      return (slept, scheduler.now)
    }
    // Waiting out the virtual hour in real time would end in the stall report and a cancelled sleep.
    #expect(slept)
    #expect(woke == SchedulerInstant.zero.advanced(by: .seconds(3_600) + .milliseconds(300)))
    scheduler.expectNoPendingWork()
  }
}

extension ScopeRulesTests {
  // An unstructured task has no executor preference, so Swift 6.3 hands a plain sleep in a default
  // actor's method to the global executor's Dispatch timer, which no runtime hook sees. Before the
  // scope redirected the concurrency library's Dispatch timers, this sleep took real time (and was
  // reported only when its wake-up reached the scope as a job of the task); with virtual clock reads
  // and no redirect it would have waited out the hour the virtual clock had run ahead.
  @Test(
    "A plain sleep in a default actor's method, called from an unstructured task of the scope, wakes at its virtual deadline"
  )
  func sleepInDefaultActorFromUnstructuredTask() async {
    let scheduler = TestScheduler()
    let (slept, woke) = await scheduler.capturingAllTasks {
      scheduler.advance(by: .seconds(3_600))
      return await Task {
        let slept = await Napper().nap(.milliseconds(300))
        return (slept, scheduler.now)
      }.value
    }
    // Waiting out the virtual hour in real time would end in the stall report and a cancelled sleep.
    #expect(slept)
    #expect(woke == SchedulerInstant.zero.advanced(by: .seconds(3_600) + .milliseconds(300)))
    scheduler.expectNoPendingWork()
  }
}
