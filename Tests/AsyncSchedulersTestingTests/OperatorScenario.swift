import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

/// The four operator scenarios of the escape and capture tests, with their hand-computed timelines.
enum OperatorScenario: String, CaseIterable, Sendable, CustomTestStringConvertible {
  /// Values 1@0, 2@50, 3@250 ms, end@400 through a 100 ms debounce.
  case debounce
  /// Values 1@0, 2@30, 3@60, 4@150, 5@260 ms, end@450 through a 100 ms throttle (latest).
  case throttleLatest
  /// A 100 ms timer sequence, four ticks.
  case timer
  /// A 100 ms timer (three ticks, "a") merged with a 120 ms timer (two ticks, "b").
  case mergeOfTimers

  var testDescription: String { rawValue }

  /// The timeline worked out by hand ("value@milliseconds").
  var expected: [String] {
    switch self {
    case .debounce: ["2@150", "3@350", "end@400"]
    case .throttleLatest: ["1@0", "3@100", "4@200", "5@300", "end@450"]
    case .timer: ["tick@100", "tick@200", "tick@300", "tick@400", "end@400"]
    case .mergeOfTimers: ["a@100", "b@120", "a@200", "b@240", "a@300", "end@300"]
    }
  }

  /// Starts the consumer: a plain `Task {}`, or one preferring the scheduler (how a test written
  /// without capture keeps its own code on virtual time).
  func start(on scheduler: TestScheduler, trace: Trace, preferringScheduler: Bool) -> Task<Void, Never> {
    let consume: @Sendable () async -> Void = {
      switch self {
      case .debounce:
        let values = timedValues(
          [(1, .zero), (2, .milliseconds(50)), (3, .milliseconds(250))], finishingAt: .milliseconds(400),
          clock: scheduler)
        for await value in values.debounced(for: .milliseconds(100), clock: scheduler) {
          trace("\(value)@\(scheduler.now.ms)")
        }
      case .throttleLatest:
        let values = timedValues(
          [
            (1, .zero), (2, .milliseconds(30)), (3, .milliseconds(60)), (4, .milliseconds(150)),
            (5, .milliseconds(260)),
          ],
          finishingAt: .milliseconds(450), clock: scheduler)
        for await value in values.throttledLatest(for: .milliseconds(100), clock: scheduler) {
          trace("\(value)@\(scheduler.now.ms)")
        }
      case .timer:
        for await tick in TimerSequence(interval: .milliseconds(100), clock: scheduler).prefix(4) {
          trace("tick@\(tick.ms)")
        }
      case .mergeOfTimers:
        let a = TimerSequence(interval: .milliseconds(100), clock: scheduler).prefix(3).map { @Sendable _ in "a" }
        let b = TimerSequence(interval: .milliseconds(120), clock: scheduler).prefix(2).map { @Sendable _ in "b" }
        for await name in merged(a, b) { trace("\(name)@\(scheduler.now.ms)") }
      }
      trace("end@\(scheduler.now.ms)")
    }
    return preferringScheduler ? Task(executorPreference: scheduler) { await consume() } : Task { await consume() }
  }
}
