import AsyncSchedulersTesting
import AsyncSignals
import Testing

@testable import AsyncSchedulers

/// Argument checks stop the program with a message naming the API, the argument and the value, in
/// every build configuration: `.ci/run` also runs the suites named `*BadInput*` in a release build,
/// where `precondition` would drop the message.
@Suite("Argument checks keep their message in release builds (BadInput)")
struct ArgumentMessageBadInputTests {
  @Test("A zero repeating interval names scheduleRepeating, the interval and its value")
  func repeatingInterval() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = SerialScheduler(name: "bad").scheduleRepeating(every: .zero) {}
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "scheduleRepeating: interval must be greater than zero (got 0.0 seconds)"))
  }

  @Test("A negative debounce names Signal.debounce, the interval and its value")
  func signalDebounce() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never().debounce(for: .seconds(-1), on: ImmediateScheduler())
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "Signal.debounce: interval must not be negative (got -1.0 seconds)"))
  }

  @Test("A TestScheduler with no jobs per instant names maximumJobsPerInstant and its value")
  func testSchedulerBound() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = TestScheduler(maximumJobsPerInstant: 0)
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains(
        "maximumJobsPerInstant must be at least 1 (got 0)"))
  }
}
