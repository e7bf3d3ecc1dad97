import AsyncSchedulers
import AsyncSchedulersTesting

#if canImport(Testing)
  import Testing
#endif

/// Loads a profile over the network (its own actor).
actor ProfileAPI {
  private(set) var requests = 0
  func load(_ id: Int) -> String {
    requests += 1
    return "profile \(id)"
  }
}

// snippet: exploration-app-code
/// App code with an order bug: the cache is checked, then filled after an `await`; two screens asking
/// at the same moment can both miss and load twice. A FIFO order never shows it.
actor ProfileCache {
  private var profiles: [Int: String] = [:]
  private let api: ProfileAPI
  init(api: ProfileAPI) { self.api = api }

  func profile(_ id: Int) async -> String {
    if let cached = profiles[id] { return cached }
    let profile = await api.load(id)
    profiles[id] = profile
    return profile
  }
}
// end-snippet

/// The fix: the load in flight is stored, so a second caller awaits it.
actor SharedProfileCache {
  private var profiles: [Int: Task<String, Never>] = [:]
  private let api: ProfileAPI
  init(api: ProfileAPI) { self.api = api }

  func profile(_ id: Int) async -> String {
    if let load = profiles[id] { return await load.value }
    let load = Task { [api] in await api.load(id) }
    profiles[id] = load
    return await load.value
  }
}

#if canImport(Testing)
  /// The cache's tests (compiled here; a test target runs them).
  struct ProfileCacheTests {
    // snippet: exploration-trait
    @Test(.virtualTime(exploring: 100))
    func twoScreensLoadTheProfileOnce() async throws {
      let api = ProfileAPI()
      let cache = ProfileCache(api: api)
      let screens = (0..<2).map { _ in
        Task {
          try await Task.sleep(for: .milliseconds(500))  // both appear at 0.5 s
          _ = await cache.profile(7)
        }
      }
      for screen in screens { try await screen.value }
      #expect(await api.requests == 1)
    }
    // Fails, naming the seed: "Exploring orderings: run K of 100 failed with seed S (K-1 run(s) passed
    // before it, …). Replay it with @Test(.virtualTime(seed: S)). Its choices: …"
    // end-snippet

    // snippet: exploration-replay
    @Test(.virtualTime(seed: 7_960_286_522_194_355_700))  // the seed the failure named
    func replayTheFailingOrder() async throws {
      // The same body as twoScreensLoadTheProfileOnce: the same choices, the same trace, every time.
    }
    // end-snippet
  }
#endif

/// Exploring orderings without the trait (XCTest's spelling), run by the examples.
enum ExplorationDemo {
  static func run() async {
    print("\n== Exploring orderings")
    // snippet: exploration-function
    let report = await TestScheduler.exploringOrderings(runs: 200) { _ in
      let api = ProfileAPI()
      let cache = SharedProfileCache(api: api)
      let screens = (0..<2).map { _ in
        Task {
          try await Task.sleep(for: .milliseconds(500))
          _ = await cache.profile(7)
        }
      }
      for screen in screens { try await screen.value }
      guard await api.requests == 1 else { throw ProfileLoadedTwice() }  // a thrown error fails the run
    }
    print(report)  // explored 200 run(s), … distinct ordering(s): all passed
    // end-snippet
  }
}

/// A run of the demo saw the profile loaded twice.
struct ProfileLoadedTwice: Error {}
