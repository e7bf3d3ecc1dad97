import AsyncSchedulersTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import AsyncSchedulers

actor Counter {
  let scheduler: SerialScheduler
  nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.unownedSerialExecutor }
  var value = 0
  init(scheduler: SerialScheduler) { self.scheduler = scheduler }

  func increment() -> Bool {
    value += 1
    return scheduler.isCurrent
  }

  func currentSchedulerAcrossAwait(other: Counter) async -> (before: Bool, after: Bool) {
    let before = Schedulers.current === scheduler
    _ = await other.increment()
    value += 1
    return (before, Schedulers.current === scheduler)
  }

  func checkIsolation() {
    preconditionIsolated("the actor must run on its scheduler")
  }
}

@Suite("SerialScheduler")
struct SerialSchedulerTests {
  @Test("runs jobs one at a time in FIFO order per submitting thread when 8 threads submit at once")
  func fifoUnderConcurrentSubmission() async {
    let scheduler = SerialScheduler(name: "fifo")
    let running = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let log = Log<(Int, Int)>()
    let perThread = 5_000
    let done = Latch(count: 8 * perThread)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for index in 0..<perThread {
        scheduler.schedule {
          if running.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue != 1 {
            overlaps.wrappingAdd(1, ordering: .relaxed)
          }
          log.append((thread, index))
          running.wrappingSubtract(1, ordering: .acquiringAndReleasing)
          done.signal()
        }
      }
    }
    #expect(await done.wait())
    #expect(overlaps.load(ordering: .relaxed) == 0)
    let values = log.values
    #expect(values.count == 8 * perThread)
    for thread in 0..<8 {
      let indices = values.filter { $0.0 == thread }.map(\.1)
      #expect(indices == Array(0..<perThread))
    }
  }

  @Test("never runs two jobs of one scheduler at once, mixing callbacks, actor calls and tasks")
  func neverTwoAtOnce() async {
    let scheduler = SerialScheduler()
    let counter = Counter(scheduler: scheduler)
    let running = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let check: @Sendable () -> Void = {
      if running.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue != 1 {
        overlaps.wrappingAdd(1, ordering: .relaxed)
      }
      running.wrappingSubtract(1, ordering: .acquiringAndReleasing)
    }
    let done = Latch(count: 1_000)
    for _ in 0..<1_000 {
      scheduler.schedule {
        check()
        done.signal()
      }
    }
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask {
          for _ in 0..<200 { _ = await counter.increment() }
        }
        group.addTask(executorPreference: scheduler) {
          for _ in 0..<200 { check() }
        }
      }
    }
    #expect(await done.wait())
    #expect(overlaps.load(ordering: .relaxed) == 0)
    #expect(await counter.value == 1_600)
  }

  @Test("an actor bound to the scheduler runs its methods there")
  func actorRunsOnScheduler() async {
    let scheduler = SerialScheduler()
    let counter = Counter(scheduler: scheduler)
    #expect(await counter.increment())
    await counter.checkIsolation()
    #expect(!scheduler.isCurrent)
  }

  @Test("preconditionIsolated fails with a readable message off the scheduler")
  func isolationCheckFailsElsewhere() async {
    await #expect(processExitsWith: .failure) {
      let counter = Counter(scheduler: SerialScheduler())
      counter.scheduler.preconditionIsCurrent("wrong place")
    }
    await #expect(processExitsWith: .failure) {
      let scheduler = SerialScheduler()
      let counter = Counter(scheduler: scheduler)
      // A plain Dispatch thread is not the scheduler: assumeIsolated must trap.
      DispatchQueue.global().sync { counter.assumeIsolated { _ in } }
    }
  }

  @Test("assumeIsolated succeeds inside a callback job of the actor's scheduler")
  func assumeIsolatedInCallback() async {
    let scheduler = SerialScheduler()
    let counter = Counter(scheduler: scheduler)
    let done = Latch()
    let result = Atomic<Int>(-1)
    scheduler.schedule {
      counter.assumeIsolated { counter in
        counter.value += 10
        result.store(counter.value, ordering: .releasing)
      }
      done.signal()
    }
    #expect(await done.wait())
    #expect(result.load(ordering: .acquiring) == 10)
  }

  @Test("a preferring task and its async let and task-group children run on the scheduler")
  func taskPreferenceAndChildren() async {
    let scheduler = SerialScheduler()
    let results = await Task(executorPreference: scheduler) { () async -> [Bool] in
      async let child = { scheduler.isCurrent }()
      let fromGroup = await withTaskGroup(of: Bool.self) { group in
        for _ in 0..<4 { group.addTask { scheduler.isCurrent } }
        return await group.reduce(into: [Bool]()) { $0.append($1) }
      }
      return [scheduler.isCurrent, await child] + fromGroup
    }.value
    #expect(results == Array(repeating: true, count: 6))
    let viaPreference = await withTaskExecutorPreference(scheduler) {
      await nonisolatedIsCurrent(scheduler)
    }
    #expect(viaPreference)
  }

  @Test("a preferring task calls nonisolated async functions without a hop through the queue")
  func nonisolatedCallsStayInline() async {
    let scheduler = SerialScheduler()
    let log = Log<String>()
    await Task(executorPreference: scheduler) {
      // Queued behind the running task job: a hop would put the task's continuation after it.
      scheduler.execute { log.append("callback queued before the call") }
      for _ in 0..<3 { _ = await nonisolatedIsCurrent(scheduler) }
      log.append("after three nonisolated calls")
    }.value
    let drained = Latch()
    scheduler.execute { drained.signal() }
    #expect(await drained.wait())
    #expect(log.values == ["after three nonisolated calls", "callback queued before the call"])
  }

  @Test("the current scheduler is right in jobs, actor methods, across await, and restored after nesting")
  func currentScheduler() async {
    let outer = SerialScheduler(name: "outer")
    let inner = SerialScheduler(name: "inner")
    let observed = Log<String>()
    let done = Latch()
    outer.schedule {
      observed.append(Schedulers.current?.name ?? "nil")
      ImmediateScheduler.shared.schedule { observed.append(Schedulers.current?.name ?? "nil") }
      inner.schedule {
        observed.append(Schedulers.current?.name ?? "nil")
        done.signal()
      }
      observed.append(Schedulers.current?.name ?? "nil")
    }
    #expect(await done.wait())
    #expect(observed.values == ["outer", "outer", "outer", "inner"])
    #expect(Schedulers.current == nil)

    let a = Counter(scheduler: outer)
    let b = Counter(scheduler: inner)
    let (before, after) = await a.currentSchedulerAcrossAwait(other: b)
    #expect(before && after)
  }

  @Test("a job never runs before its deadline", arguments: [SchedulerLatencyMode.efficient, .lowLatency])
  func neverEarly(mode: SchedulerLatencyMode) async {
    let scheduler = SerialScheduler(latencyMode: mode)
    let count = 200
    let done = Latch(count: count)
    let early = Atomic<Int>(0)
    let start = scheduler.now
    for index in 0..<count {
      let deadline = start.advanced(by: .microseconds(index * 250))
      scheduler.schedule(at: deadline) {
        if scheduler.now < deadline { early.wrappingAdd(1, ordering: .relaxed) }
        done.signal()
      }
    }
    #expect(await done.wait())
    #expect(early.load(ordering: .relaxed) == 0)
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test(
    "timers due within the hand-over window, jobs and disposals from 4 threads: each runs once, never early",
    arguments: [SchedulerLatencyMode.efficient, .lowLatency])
  func nearTimersMixedWithJobs(mode: SchedulerLatencyMode) async {
    let scheduler = SerialScheduler(latencyMode: mode)
    let threads = 4
    let perThread = 2_000
    // Every third item is a timer due 0–300 µs ahead (inside or just outside the window in which a
    // worker waits for it), except that every fifth timer is due in an hour and disposed at once (so it
    // can only run if disposal failed); the rest are plain jobs.
    let expected = (0..<perThread).filter { $0 % 3 != 0 || ($0 / 3) % 5 != 0 }.count * threads
    let done = Latch(count: expected)
    let ran = Atomic<Int>(0)
    let early = Atomic<Int>(0)
    let disposedRan = Atomic<Int>(0)
    for thread in 0..<threads {
      Thread.detachNewThread {
        for index in 0..<perThread {
          if index % 3 == 0 {
            let disposed = (index / 3) % 5 == 0
            let deadline = scheduler.now.advanced(
              by: disposed ? .seconds(3600) : .microseconds((index * 37 + thread * 11) % 300))
            let handle = scheduler.schedule(at: deadline) {
              if disposed { disposedRan.wrappingAdd(1, ordering: .relaxed) }
              if scheduler.now < deadline { early.wrappingAdd(1, ordering: .relaxed) }
              ran.wrappingAdd(1, ordering: .relaxed)
              done.signal()
            }
            if disposed { handle.dispose() }
          } else {
            scheduler.execute {
              ran.wrappingAdd(1, ordering: .relaxed)
              done.signal()
            }
          }
        }
      }
    }
    #expect(await done.wait())
    let barrier = Latch()
    scheduler.schedule(after: .milliseconds(1)) { barrier.signal() }
    #expect(await barrier.wait())
    #expect(ran.load(ordering: .relaxed) == expected)
    #expect(early.load(ordering: .relaxed) == 0)
    #expect(disposedRan.load(ordering: .relaxed) == 0)
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test("a timer with leeway waits for a later one whose window closes first: both fire in one wake-up, never early")
  func leewayCoalesces() async {
    let scheduler = SerialScheduler()
    let log = Log<(String, SchedulerInstant)>()
    let done = Latch(count: 2)
    let start = scheduler.now
    let relaxed = start.advanced(by: .milliseconds(30))
    let strict = start.advanced(by: .milliseconds(60))
    // Due at 30 ms, may be up to 50 ms late: the timer due at 60 ms with no leeway falls in its window.
    scheduler.schedule(at: relaxed, leeway: .milliseconds(50)) {
      log.append(("relaxed", scheduler.now))
      done.signal()
    }
    scheduler.schedule(at: strict, leeway: .zero) {
      log.append(("strict", scheduler.now))
      done.signal()
    }
    #expect(await done.wait())
    let entries = log.values
    #expect(entries.map(\.0) == ["relaxed", "strict"])
    // One wake-up: the relaxed timer waited for the strict one's deadline (and neither ran early).
    #expect(entries.allSatisfy { $0.1 >= strict })
  }

  @Test("a negative leeway counts as zero: the timer still runs, never early")
  func negativeLeeway() async {
    let scheduler = SerialScheduler()
    let done = Latch()
    let deadline = scheduler.now.advanced(by: .milliseconds(5))
    let early = Atomic<Bool>(false)
    scheduler.schedule(at: deadline, leeway: .milliseconds(-5)) {
      early.store(scheduler.now < deadline, ordering: .relaxed)
      done.signal()
    }
    #expect(await done.wait())
    #expect(early.load(ordering: .relaxed) == false)
  }

  @Test("execute(at:) runs at its deadline, never early, ordered with handle timers")
  func executeAt() async {
    let scheduler = SerialScheduler()
    let log = Log<String>()
    let done = Latch(count: 4)
    let early = Atomic<Int>(0)
    let base = scheduler.now.advanced(by: .milliseconds(20))
    func record(_ label: String, _ deadline: SchedulerInstant) -> @Sendable () -> Void {
      {
        if scheduler.now < deadline { early.wrappingAdd(1, ordering: .relaxed) }
        log.append(label)
        done.signal()
      }
    }
    let late = base.advanced(by: .milliseconds(5))
    scheduler.execute(at: late, record("execute +5", late))
    scheduler.schedule(at: base, record("schedule +0", base))
    scheduler.execute(at: base, record("execute +0", base))
    scheduler.execute(after: .zero, record("execute now", scheduler.now))
    // "execute now" is queued behind the timers only if the 20 ms passed while the test queued them
    // (a loaded machine, ThreadSanitizer): then its place is decided by when it was queued, not checked.
    let queuedBeforeBase = scheduler.now < base
    #expect(await done.wait())
    let timers = log.values.filter { $0 != "execute now" }
    #expect(timers == ["schedule +0", "execute +0", "execute +5"])
    if queuedBeforeBase { #expect(log.values.first == "execute now") }
    #expect(early.load(ordering: .relaxed) == 0)
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test("a scheduler dropped with fire-and-forget timers pending runs them, then is released")
  func pendingTimersKeepSchedulerAlive() async {
    let done = Latch(count: 2)
    let reference: WeakReference<SerialScheduler> = {
      let scheduler = SerialScheduler()
      // Fire-and-forget timers: no handle holds the scheduler.
      scheduler.execute(after: .milliseconds(5)) { done.signal() }
      scheduler.execute(after: .milliseconds(10)) { done.signal() }
      return WeakReference(scheduler)
    }()
    #expect(await done.wait())
    // The last reference goes when the worker that ran the last timer returns: wait for that event.
    let released = Latch()
    let poller = SerialScheduler().scheduleRepeating(every: .milliseconds(1)) {
      if reference.value == nil { released.signal() }
    }
    #expect(await released.wait())
    poller.dispose()
  }

  @Test("a cancelled sleep throws at once and leaves no timer behind")
  func cancelledSleep() async throws {
    let scheduler = SerialScheduler()
    let sleepEnded = Locked<ContinuousClock.Instant?>(nil)
    let task = Task(executorPreference: scheduler) {
      // Taken in the sleeping task, on the scheduler: the test's own task may wait long for a
      // cooperative thread to resume on, which says nothing about how promptly the sleep ended.
      defer { sleepEnded.withCriticalRegion { $0 = .now } }
      try await scheduler.sleep(for: .seconds(3600))
    }
    // The sleep registers its timer from the task; wait for that event, bounded.
    let registered = Latch()
    let poller = scheduler.scheduleRepeating(every: .milliseconds(1)) {
      if scheduler.pendingTimerCount > 1 { registered.signal() }
    }
    #expect(await registered.wait())
    poller.dispose()
    let cancelledAt = ContinuousClock.now
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    // "At once" against the hour-long sleep; the bound is generous for loaded machines.
    let ended = sleepEnded.withCriticalRegion { $0 }
    #expect(ended.map { $0 - cancelledAt < .seconds(60) } == true)
    #expect(scheduler.pendingTimerCount == 0)
  }

  @Test("a repeating timer fires on its grid and stops when disposed")
  func repeatingTimer() async {
    let scheduler = SerialScheduler()
    let ticks = Latch(count: 5)
    let fired = Atomic<Int>(0)
    let start = scheduler.now.advanced(by: .milliseconds(5))
    let timer = scheduler.scheduleRepeating(startingAt: start, every: .milliseconds(5)) {
      fired.wrappingAdd(1, ordering: .relaxed)
      ticks.signal()
    }
    #expect(await ticks.wait())
    timer.dispose()
    #expect(scheduler.pendingTimerCount == 0)
    let after = fired.load(ordering: .relaxed)
    // Nothing is pending any more, so the count can only have grown by a tick already handed to the
    // worker before the disposal.
    let barrier = Latch()
    scheduler.schedule { barrier.signal() }
    #expect(await barrier.wait())
    #expect(fired.load(ordering: .relaxed) <= after + 1)
  }

  @Test("a scheduler targeting a concurrent queue stays serial")
  func targetQueueStaysSerial() async {
    let scheduler = SerialScheduler(name: "target", targetQueue: .global())
    let running = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let done = Latch(count: 10_000)
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      for _ in 0..<2_500 {
        scheduler.schedule {
          if running.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue != 1 {
            overlaps.wrappingAdd(1, ordering: .relaxed)
          }
          running.wrappingSubtract(1, ordering: .acquiringAndReleasing)
          done.signal()
        }
      }
    }
    #expect(await done.wait())
    #expect(overlaps.load(ordering: .relaxed) == 0)
  }

  @Test("execute and schedule share one FIFO")
  func executeKeepsOrder() async {
    let scheduler = SerialScheduler()
    let log = Log<Int>()
    let done = Latch()
    for index in 0..<100 {
      if index % 2 == 0 { scheduler.execute { log.append(index) } } else { scheduler.schedule { log.append(index) } }
    }
    scheduler.execute { done.signal() }
    #expect(await done.wait())
    #expect(log.values == Array(0..<100))
  }

  @Test("perform runs the closure on the scheduler and returns its result")
  func perform() async throws {
    let scheduler = SerialScheduler()
    let (value, onScheduler) = try await scheduler.perform { (42, scheduler.isCurrent) }
    #expect(value == 42 && onScheduler)
  }

  @Test("ten thousand serial schedulers each run a job without a thread each")
  func manySchedulers() async {
    let done = Latch(count: 10_000)
    let schedulers = (0..<10_000).map { SerialScheduler(name: "s\($0)") }
    for scheduler in schedulers { scheduler.schedule { done.signal() } }
    #expect(await done.wait())
  }
}

private nonisolated func nonisolatedIsCurrent(_ scheduler: SerialScheduler) async -> Bool {
  scheduler.isCurrent
}

/// A weak reference that can cross concurrency domains.
final class WeakReference<Object: AnyObject & Sendable>: Sendable {
  weak let value: Object?
  init(_ value: Object) { self.value = value }
}

extension SerialSchedulerTests {
  @Test("a repeating timer whose run overruns three periods runs once more at once, then on its grid, not in a burst")
  func repeatingOverrunCoalesces() async {
    let scheduler = SerialScheduler(name: "overrun")
    let starts = Log<SchedulerInstant>()
    let done = Latch()
    let count = Mutex(0)
    let scheduled = scheduler.now
    let timer = scheduler.scheduleRepeating(every: .milliseconds(20)) {
      starts.append(scheduler.now)
      let run = count.withCriticalRegion { count -> Int in
        count += 1
        return count
      }
      // The first run overruns three periods (the scheduler is busy: the firings meanwhile coalesce).
      if run == 1 { Thread.sleep(forTimeInterval: 0.07) }
      if run == 4 { done.signal() }
    }
    #expect(await done.wait(timeout: .seconds(30)))
    timer.dispose()
    let times = starts.values
    #expect(times.count >= 4)
    if times.count >= 4 {
      // The grid points that passed while the first run overran (it ends at least 70 ms after it
      // started) are coalesced into one run, at once; the run after that waits for the first grid
      // point after the overrun ended (a burst would start it at once). Measured against the grid, not
      // against the catch-up run: a loaded machine makes runs late, which shortens that gap without
      // any burst.
      let period: Int64 = 20_000_000
      let sinceStart = { (time: SchedulerInstant) -> Int64 in
        let (seconds, attoseconds) = scheduled.duration(to: time).components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
      }
      let overrunEnd = sinceStart(times[0]) + 70_000_000
      let nextGridPoint = (overrunEnd / period + 1) * period
      #expect(
        sinceStart(times[2]) >= nextGridPoint,
        "runs at \(times.map { scheduled.duration(to: $0) }) after scheduling; grid point \(nextGridPoint) ns")
    }
  }
}
