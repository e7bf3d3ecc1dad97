import AsyncSchedulers
import AsyncSchedulersTesting

/// Async scenarios driven by a TestScheduler. Each returns the exact trace it produced; the tests assert
/// each trace, and the determinism test runs them all many times.
enum Scenarios {
  static let all: [(name: String, run: @Sendable () -> [String])] = [
    ("debounced search", debouncedSearch),
    ("task group deadlines", taskGroupDeadlines),
    ("async let pairs", asyncLetPairs),
    ("AsyncStream on the scheduler", asyncStream),
    ("cancellation mid-advance", cancellationMidAdvance),
    ("actor re-entrancy", actorReentrancy),
    ("repeating ticker", ticker),
  ]

  // MARK: Debounced search in an actor bound to the scheduler

  actor SearchModel {
    let scheduler: TestScheduler
    let trace: Trace
    nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.unownedSerialExecutor }
    private var pending: Task<Void, Never>?

    init(scheduler: TestScheduler, trace: Trace) {
      self.scheduler = scheduler
      self.trace = trace
    }

    func queryChanged(_ query: String) {
      trace("typed \(query) at \(scheduler.now.ms)")
      pending?.cancel()
      pending = Task(executorPreference: scheduler) { [scheduler] in
        do { try await scheduler.sleep(for: .milliseconds(300)) } catch { return }
        await self.search(query)
      }
    }

    func search(_ query: String) { trace("search \(query) at \(scheduler.now.ms)") }
  }

  static func debouncedSearch() -> [String] {
    let scheduler = TestScheduler()
    let trace = Trace()
    let model = SearchModel(scheduler: scheduler, trace: trace)
    let typing: [(Int, String)] = [(0, "s"), (100, "sw"), (200, "swi"), (600, "swif"), (650, "swift")]
    Task(executorPreference: scheduler) {
      for (at, query) in typing {
        try await scheduler.sleep(until: SchedulerInstant(offset: .milliseconds(at)))
        await model.queryChanged(query)
      }
    }
    scheduler.advance(by: .milliseconds(949))
    trace("checkpoint at \(scheduler.now.ms)")
    scheduler.run()
    return trace.values
  }

  // MARK: A task group of 100 children sleeping different durations

  static func taskGroupDeadlines() -> [String] {
    let scheduler = TestScheduler()
    let trace = Trace()
    Task(executorPreference: scheduler) {
      await withTaskGroup(of: Int.self) { group in
        for child in 0..<100 {
          let duration = Duration.milliseconds((child * 37) % 100 + 1)
          group.addTask {
            try? await scheduler.sleep(for: duration)
            return child
          }
        }
        for await child in group { trace("child \(child) at \(scheduler.now.ms)") }
      }
      trace("group done at \(scheduler.now.ms)")
    }
    scheduler.run()
    return trace.values
  }

  // MARK: async let pairs

  static func asyncLetPairs() -> [String] {
    let scheduler = TestScheduler()
    let trace = Trace()
    Task(executorPreference: scheduler) {
      for round in 0..<2 {
        async let slow: String = {
          try? await scheduler.sleep(for: .seconds(2))
          trace("slow \(round) at \(scheduler.now.ms)")
          return "slow"
        }()
        async let fast: String = {
          try? await scheduler.sleep(for: .seconds(1))
          trace("fast \(round) at \(scheduler.now.ms)")
          return "fast"
        }()
        let pair = await (slow, fast)
        trace("pair \(pair.0)+\(pair.1) at \(scheduler.now.ms)")
      }
    }
    scheduler.run()
    return trace.values
  }

  // MARK: An AsyncStream produced and consumed on the scheduler

  static func asyncStream() -> [String] {
    let scheduler = TestScheduler()
    let trace = Trace()
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    Task(executorPreference: scheduler) {
      for value in 1...5 {
        try? await scheduler.sleep(for: .seconds(1))
        trace("yield \(value) at \(scheduler.now.ms)")
        continuation.yield(value)
      }
      continuation.finish()
    }
    Task(executorPreference: scheduler) {
      for await value in stream { trace("got \(value) at \(scheduler.now.ms)") }
      trace("finished at \(scheduler.now.ms)")
    }
    for second in 1...5 {
      scheduler.advance(by: .seconds(1))
      trace("advanced to \(second)s")
    }
    return trace.values
  }

  // MARK: Cancelling a sleeping task in the middle of an advance

  static func cancellationMidAdvance() -> [String] {
    let scheduler = TestScheduler()
    let trace = Trace()
    let sleeper = Task(executorPreference: scheduler) {
      do {
        try await scheduler.sleep(for: .seconds(10))
        trace("sleeper woke at \(scheduler.now.ms)")
      } catch {
        trace("sleeper cancelled at \(scheduler.now.ms)")
      }
    }
    Task(executorPreference: scheduler) {
      try? await scheduler.sleep(for: .seconds(7))
      trace("other woke at \(scheduler.now.ms)")
    }
    scheduler.schedule(after: .seconds(5)) {
      trace("cancel at \(scheduler.now.ms)")
      sleeper.cancel()
    }
    scheduler.advance(by: .seconds(20))
    trace("pending \(scheduler.pendingCount) at \(scheduler.now.ms)")
    return trace.values
  }

  // MARK: Actor re-entrancy across an await

  actor Cache {
    let scheduler: TestScheduler
    let trace: Trace
    nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.unownedSerialExecutor }
    private var values: [String: Int] = [:]
    private var loads = 0

    init(scheduler: TestScheduler, trace: Trace) {
      self.scheduler = scheduler
      self.trace = trace
    }

    func value(for key: String) async -> Int {
      if let cached = values[key] {
        trace("hit \(key) at \(scheduler.now.ms)")
        return cached
      }
      loads += 1
      let load = loads
      trace("load \(key) #\(load) starts at \(scheduler.now.ms)")
      try? await scheduler.sleep(for: .milliseconds(100))
      // Re-entrancy: another call may have stored a value meanwhile.
      trace("load \(key) #\(load) ends at \(scheduler.now.ms), cached before: \(values[key] != nil)")
      values[key] = load
      return load
    }
  }

  static func actorReentrancy() -> [String] {
    let scheduler = TestScheduler()
    let trace = Trace()
    let cache = Cache(scheduler: scheduler, trace: trace)
    for offset in [0, 50, 150] {
      Task(executorPreference: scheduler) {
        try? await scheduler.sleep(for: .milliseconds(offset))
        let value = await cache.value(for: "k")
        trace("caller \(offset) got \(value) at \(scheduler.now.ms)")
      }
    }
    scheduler.run()
    return trace.values
  }

  // MARK: A repeating ticker consumed for 10 ticks

  static func ticker() -> [String] {
    let scheduler = TestScheduler()
    let trace = Trace()
    Task(executorPreference: scheduler) {
      var count = 0
      for await tick in scheduler.ticks(every: .milliseconds(250)) {
        count += 1
        trace("tick \(count) due \(tick.ms) at \(scheduler.now.ms)")
        if count == 10 { break }
      }
      trace("stopped at \(scheduler.now.ms)")
    }
    scheduler.advance(by: .seconds(10))
    trace("pending \(scheduler.pendingCount)")
    return trace.values
  }
}
