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
    .virtualTime, arguments: CallbackScenario.allCases, loads)
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
    arguments: CallbackScenario.allCases)
  func onRealTime(scenario: CallbackScenario) async {
    let timeline = await scenario.run()
    func split(_ line: String) -> (String, Int) {
      let parts = line.components(separatedBy: " at ")
      return (parts[0], Int(parts[1]) ?? -1)
    }
    let (actual, expected) = (timeline.map(split), scenario.expected.map(split))
    #expect(actual.map(\.0) == expected.map(\.0), "the events and their order are the device's")
    for ((label, real), (_, virtual)) in zip(actual, expected) {
      // Real time is late, never early; a generous bound for a loaded machine.
      #expect(real >= virtual && real < virtual + 250, "\(label): \(real) ms on real time, \(virtual) ms expected")
    }
  }
}
