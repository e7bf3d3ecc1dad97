import AsyncSchedulers
import AsyncSchedulersTesting
import Testing

@Suite("Plain Task.sleep on a TestScheduler")
struct TaskSleepTests {
  @Test("Task.sleep(for:) in a task preferring the scheduler wakes at exactly now + duration")
  func sleepForIsExact() async throws {
    let scheduler = TestScheduler()
    let task = Task(executorPreference: scheduler) {
      try await Task.sleep(for: .milliseconds(300))
      return scheduler.now
    }
    scheduler.advance(by: .milliseconds(299))
    #expect(scheduler.pendingCount == 1)
    scheduler.advance(by: .milliseconds(1))
    #expect(try await task.value == SchedulerInstant.zero.advanced(by: .milliseconds(300)))
  }

  @Test("Every plain sleep spelling wakes at its exact virtual instant", arguments: SleepSpelling.allCases)
  func everySpellingIsExact(spelling: SleepSpelling) async throws {
    let scheduler = TestScheduler()
    let task = Task(executorPreference: scheduler) {
      var wakes: [SchedulerInstant] = []
      for _ in 0..<3 {
        try await spelling.sleep(.milliseconds(1_500))
        wakes.append(scheduler.now)
      }
      return wakes
    }
    scheduler.advance(by: .seconds(10))
    let expected = [1_500, 3_000, 4_500].map { SchedulerInstant.zero.advanced(by: .milliseconds($0)) }
    #expect(try await task.value == expected)
  }

  @Test("A cancelled plain sleep throws CancellationError at once, without the clock moving")
  func cancelledSleepThrowsAtOnce() async {
    let scheduler = TestScheduler()
    let task = Task(executorPreference: scheduler) {
      do {
        try await Task.sleep(for: .seconds(60))
        return "woke"
      } catch {
        return "\(type(of: error))"
      }
    }
    scheduler.advance()
    task.cancel()
    scheduler.advance()
    #expect(await task.value == "CancellationError")
    #expect(scheduler.now == .zero)
  }

  @Test("An actor bound to the scheduler sleeps on virtual time, in deadline order")
  func boundActorSleepsOnVirtualTime() async throws {
    let scheduler = TestScheduler()
    let trace = Trace()
    let sleeper = BoundSleeper(scheduler: scheduler, trace: trace)
    let long = Task(executorPreference: scheduler) { try await sleeper.nap("long", .seconds(2)) }
    let short = Task(executorPreference: scheduler) { try await sleeper.nap("short", .seconds(1)) }
    scheduler.advance(by: .seconds(2))
    try await long.value
    try await short.value
    #expect(trace.values == ["short at 1000", "long at 2000"])
  }
}

/// An actor whose executor is the scheduler.
private actor BoundSleeper {
  let scheduler: TestScheduler
  let trace: Trace
  init(scheduler: TestScheduler, trace: Trace) {
    self.scheduler = scheduler
    self.trace = trace
  }
  nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.asUnownedSerialExecutor() }
  func nap(_ label: String, _ duration: Duration) async throws {
    try await Task.sleep(for: duration)
    trace("\(label) at \(scheduler.now.ms)")
  }
}

/// The spellings of a plain sleep that app code uses.
enum SleepSpelling: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case taskSleepFor, taskSleepUntil, taskSleepNanoseconds, continuousClock, suspendingClock
  var testDescription: String { rawValue }
  func sleep(_ duration: Duration) async throws {
    switch self {
    case .taskSleepFor: try await Task.sleep(for: duration)
    case .taskSleepUntil: try await Task.sleep(until: .now + duration, clock: .continuous)
    case .taskSleepNanoseconds: try await Task.sleep(nanoseconds: UInt64(duration / .nanoseconds(1)))
    case .continuousClock: try await ContinuousClock().sleep(for: duration)
    case .suspendingClock: try await SuspendingClock().sleep(for: duration)
    }
  }
}
