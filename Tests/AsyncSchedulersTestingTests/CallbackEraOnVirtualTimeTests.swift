import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Foundation
import Testing

@testable import AsyncSchedulers

/// How many times each pattern runs: 100 (1,000 in the soak), 10 under ThreadSanitizer.
private var runs: Int { ThreadSanitizerHooks.shared == nil ? 100 * ModelTesting.soak : 10 }

/// Quiet, and in the soak (`ASYNC_SCHEDULERS_SOAK`) also with two CPU-burning threads.
private let loads: [Bool] = ModelTesting.soak > 1 ? [false, true] : [false]

@Suite("Callback-era app code on virtual time: exact timelines, quiet and loaded (StressTests)", .serialized)
struct CallbackEraOnVirtualTimeStressTests {
  @MainActor
  @Test(
    ".virtualTime: each callback-era pattern on Dispatch gives its exact timeline every time",
    // A generous bound for work in flight: on Linux the global queues are also Swift's cooperative pool,
    // which tests blocking threads in the parallel suite can starve for many seconds.
    .virtualTime(stallTimeout: .seconds(300)), arguments: CallbackScenario.allCases, loads)
  func underTheTrait(scenario: CallbackScenario, loaded: Bool) async {
    let hogs = loaded ? CPUHogs(count: 2) : nil
    defer { hogs?.stop() }
    var results: [[String]: Int] = [:]
    for _ in 0..<runs { results[await scenario.run(), default: 0] += 1 }
    #expect(results == [scenario.expected: runs])
  }
}

@Suite("Callback-era app code on real time")
struct CallbackEraOnRealTimeTests {
  @MainActor
  @Test(
    "on real time, outside any scope, each pattern gives the same events at the expected times (give or take)",
    // Not under ThreadSanitizer, whose runtime stalls every thread for seconds at a time: real time
    // there says nothing about a device.
    .enabled(if: ThreadSanitizerHooks.shared == nil), arguments: CallbackScenario.allCases)
  func onRealTime(scenario: CallbackScenario) async {
    // Real time on a shared machine running the suite in parallel: a keystroke 100 ms after another can
    // arrive 300 ms later, and a debounce then rightly searches twice. The device's timeline is checked
    // when the machine keeps up: up to three tries, each listed on failure.
    func split(_ line: String) -> (String, Int) {
      let parts = line.components(separatedBy: " at ")
      return (parts[0], Int(parts[1]) ?? -1)
    }
    let expected = scenario.expected.map(split)
    var tries: [[String]] = []
    for _ in 0..<3 {
      let actual = await scenario.run().map(split)
      tries.append(actual.map { "\($0.0) at \($0.1)" })
      // The same events in the same order, late (never early) by less than a generous bound (2 s: the
      // parallel suite on two cores delays a 500 ms event by up to a second).
      let keptUp =
        actual.map(\.0) == expected.map(\.0)
        && zip(actual, expected).allSatisfy { real, virtual in real.1 >= virtual.1 && real.1 < virtual.1 + 2_000 }
      if keptUp { return }
      // Early is never acceptable, whatever the load.
      for (real, virtual) in zip(actual, expected) where real.0 == virtual.0 {
        #expect(real.1 >= virtual.1, "\(real.0) came early: \(real.1) ms, expected \(virtual.1) ms")
      }
    }
    Issue.record("three tries on real time never gave \(scenario.expected): \(tries)")
  }
}
