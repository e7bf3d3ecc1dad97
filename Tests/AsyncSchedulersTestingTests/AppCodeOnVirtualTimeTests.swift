import AppPatterns
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers

/// How many times each pattern runs: 100 (1,000 in the soak), 10 under ThreadSanitizer.
private var runs: Int { ThreadSanitizerHooks.shared == nil ? 100 * ModelTesting.soak : 10 }

/// Quiet, and in the soak (`ASYNC_SCHEDULERS_SOAK`) also with two CPU-burning threads: the hogs would
/// slow the rest of the plain suite, which runs in parallel.
private let loads: [Bool] = ModelTesting.soak > 1 ? [false, true] : [false]

/// Runs `body` `runs` times and counts the distinct results.
private func repeated(
  isolation: isolated (any Actor)? = #isolation, loaded: Bool, _ body: () async -> [String]
) async -> [[String]: Int] {
  let hogs = loaded ? CPUHogs(count: 2) : nil
  defer { hogs?.stop() }
  var results: [[String]: Int] = [:]
  for _ in 0..<runs { results[await body(), default: 0] += 1 }
  return results
}

@Suite("App code on virtual time: exact timelines, quiet and loaded (StressTests)", .serialized)
struct AppCodeOnVirtualTimeStressTests {
  @MainActor
  @Test(
    "From a @MainActor test, each app pattern inside capturingAllTasks gives its exact timeline every time",
    arguments: AppScenario.allCases, loads)
  func mainActorTest(scenario: AppScenario, loaded: Bool) async {
    let results = await repeated(loaded: loaded) {
      let scheduler = TestScheduler()
      return await scheduler.capturingAllTasks { await scenario.run(on: scheduler) }
    }
    #expect(results == [scenario.expected: runs])
  }

  @Test(
    "From a nonisolated test, each app pattern inside capturingAllTasks gives its exact timeline every time",
    arguments: AppScenario.allCases, loads)
  func nonisolatedTest(scenario: AppScenario, loaded: Bool) async {
    let results = await repeated(loaded: loaded) {
      let scheduler = TestScheduler()
      return await scheduler.capturingAllTasks { await scenario.run(on: scheduler) }
    }
    #expect(results == [scenario.expected: runs])
  }

  @MainActor
  @Test(
    ".virtualTime: each app pattern gives its exact timeline every time, on the test's scheduler",
    .virtualTime, arguments: AppScenario.allCases, loads)
  func underTheTrait(scenario: AppScenario, loaded: Bool) async throws {
    let scheduler = try #require(TestScheduler.current)
    let results = await repeated(loaded: loaded) { await scenario.run(on: scheduler) }
    #expect(results == [scenario.expected: runs])
  }

  @MainActor
  @Test(
    ".virtualTime with auto-advance: each app pattern, driven by the test's own Task.sleep, gives its exact timeline every time",
    .virtualTime, arguments: AppScenario.allCases, loads)
  func underTheTraitAutoAdvancing(scenario: AppScenario, loaded: Bool) async throws {
    let scheduler = try #require(TestScheduler.current)
    let results = await repeated(loaded: loaded) { await scenario.run(on: scheduler, driving: .autoAdvance) }
    #expect(results == [scenario.expected: runs])
  }

  @Test(
    "From a nonisolated test, each app pattern inside capturingAllTasks, auto-advancing, gives its exact timeline every time",
    arguments: AppScenario.allCases, loads)
  func nonisolatedAutoAdvancing(scenario: AppScenario, loaded: Bool) async {
    let results = await repeated(loaded: loaded) {
      let scheduler = TestScheduler()
      return await scheduler.capturingAllTasks { await scenario.run(on: scheduler, driving: .autoAdvance) }
    }
    #expect(results == [scenario.expected: runs])
  }
}
