import AppPatterns
import AsyncSchedulers
import AsyncSchedulersTesting
import Synchronization

/// The app patterns of `AppPatterns` (code with no import of this package), each driven on a
/// `TestScheduler` the way a test would, with the timeline it must give, computed by hand.
///
/// `run` takes the caller's isolation: from a `@MainActor` test it runs on the main actor (the calls to
/// the view models do not suspend), from a nonisolated test it runs nonisolated.
enum AppScenario: String, CaseIterable, Sendable {
  case debounceWithInjectedClock
  case debounceWithPlainSleep
  case defaultActorWithInjectedClock
  case pollerSleepingOneSecond
  case taskGroupTimeoutRace
  case detachedProducerIntoMainActorConsumer

  /// The timeline, in milliseconds from the start of the run.
  var expected: [String] {
    switch self {
    case .debounceWithInjectedClock, .debounceWithPlainSleep, .defaultActorWithInjectedClock:
      ["nothing at 399", "search sw at 400"]
    case .pollerSleepingOneSecond: ["poll at 0", "poll at 1000", "poll at 2000", "poll at 3000", "stopped at 3500"]
    case .taskGroupTimeoutRace: ["fast at 500", "timed out at 1500"]
    case .detachedProducerIntoMainActorConsumer: ["shown [1, 2, 3] at 750"]
    }
  }

  /// How a run moves the clock.
  enum Driving: String, CaseIterable, Sendable {
    /// The test calls `advance(by:)` (Swift's equivalent of swift-clocks' `TestClock.advance`).
    case manual
    /// The test sleeps (`Task.sleep(for:)`, as a Go test sleeps in a synctest bubble) and the scope's
    /// auto-advance moves the clock when every task waits.
    case autoAdvance

    /// Moves the clock `duration` forward, the way this driving does.
    func move(
      _ scheduler: TestScheduler, by duration: Duration, isolation: isolated (any Actor)? = #isolation
    ) async {
      switch self {
      case .manual: scheduler.advance(by: duration)
      case .autoAdvance: try? await Task.sleep(for: duration)
      }
    }
  }

  /// Runs the pattern on `scheduler` (already capturing) and returns its timeline.
  func run(
    on scheduler: TestScheduler, driving: Driving = .manual, isolation: isolated (any Actor)? = #isolation
  ) async -> [String] {
    let start = scheduler.now
    let trace = Timeline(scheduler: scheduler, start: start)
    switch self {
    case .debounceWithInjectedClock, .debounceWithPlainSleep:
      let model = await SearchViewModel(clock: self == .debounceWithInjectedClock ? scheduler : nil) { query in
        trace("search \(query)")
        return [query]
      }
      await Self.typeTwoQueries(
        on: scheduler, driving: driving, trace: trace, type: { await model.queryChanged($0) },
        searchedNothing: { await model.searches.isEmpty })
      await model.settle()
    case .defaultActorWithInjectedClock:
      let model = SearchActor(clock: scheduler)
      await Self.typeTwoQueries(
        on: scheduler, driving: driving, trace: trace, type: { await model.queryChanged($0) },
        searchedNothing: { await model.searches.isEmpty })
      for query in await model.searches { trace("search \(query)") }
    case .pollerSleepingOneSecond:
      let poller = await Poller { trace("poll") }
      await poller.start()
      await driving.move(scheduler, by: .milliseconds(3_500))
      await poller.stop()
      await poller.finished()
      trace("stopped")
    case .taskGroupTimeoutRace:
      let fast = Task {
        try await withTimeout(.seconds(1)) { try await fakeFetch("fast", latency: .milliseconds(500)) }
      }
      await driving.move(scheduler, by: .milliseconds(500))
      if let value = try? await fast.value { trace(value) }
      let slow = Task { try await withTimeout(.seconds(1)) { try await fakeFetch("slow", latency: .seconds(2)) } }
      await driving.move(scheduler, by: .seconds(2))
      do {
        trace(try await slow.value)
      } catch {
        // The timeout fired at 1500 ms; the slow fetch, cancelled, never answers.
        trace.at(.milliseconds(1_500), error is TimedOut ? "timed out" : "\(error)")
      }
    case .detachedProducerIntoMainActorConsumer:
      let feed = await TickerFeed()
      let consumer = Task { await feed.run(count: 3, interval: .milliseconds(250)) }
      await driving.move(scheduler, by: .seconds(1))
      await consumer.value
      trace.at(.milliseconds(750), "shown \(await feed.shown)")
    }
    return trace.lines
  }
}

extension AppScenario {
  /// The debounce timeline: "s" at 0, "sw" at 100 ms, "nothing" traced if no search ran by 399 ms, then
  /// the clock moves to 400 ms, when the search is due.
  static func typeTwoQueries(
    on scheduler: TestScheduler, driving: Driving, trace: Timeline, isolation: isolated (any Actor)? = #isolation,
    type: (String) async -> Void, searchedNothing: () async -> Bool
  ) async {
    await type("s")
    await driving.move(scheduler, by: .milliseconds(100))
    await type("sw")
    await driving.move(scheduler, by: .milliseconds(299))
    if await searchedNothing() { trace("nothing") }
    await driving.move(scheduler, by: .milliseconds(1))
  }
}

/// A thread-safe timeline: lines stamped with the virtual time since `start`, in milliseconds.
final class Timeline: Sendable {
  private let scheduler: TestScheduler
  private let start: SchedulerInstant
  private let storage = Mutex<[String]>([])

  init(scheduler: TestScheduler, start: SchedulerInstant) {
    self.scheduler = scheduler
    self.start = start
  }

  /// Appends `line` at the scheduler's current virtual time.
  func callAsFunction(_ line: String) { at(start.duration(to: scheduler.now), line) }

  /// Appends `line` stamped with `elapsed` (for events whose time the test knows, not reads).
  func at(_ elapsed: Duration, _ line: String) {
    let milliseconds = Int(elapsed / .milliseconds(1))
    storage.withCriticalRegion { $0.append("\(line) at \(milliseconds)") }
  }

  var lines: [String] { storage.withCriticalRegion { $0 } }
}
