import AsyncSchedulers
import AsyncSchedulersTesting

#if canImport(Testing)
  import Testing
#endif

// snippet: app-view-model
/// App code as it is written: a main-actor view model, a plain `Task {}`, a plain `Task.sleep`.
@MainActor
final class SearchModel {
  private(set) var searches: [String] = []
  private var pending: Task<Void, Never>?

  func queryChanged(_ query: String) {
    pending?.cancel()
    pending = Task {
      do { try await Task.sleep(for: .milliseconds(300)) } catch { return }
      searches.append(query)
    }
  }
}
// end-snippet

#if canImport(Testing)
  /// The view model's test with the trait (compiled here; a test target runs it).
  struct SearchModelTests {
    // snippet: app-view-model-auto-advance
    @Test(.virtualTime) @MainActor
    func searchRunsAfterAPauseInTyping() async throws {
      let model = SearchModel()
      model.queryChanged("s")
      try await Task.sleep(for: .milliseconds(100))  // virtual: the clock jumps when everything waits
      model.queryChanged("sw")
      try await Task.sleep(for: .milliseconds(299))
      #expect(model.searches.isEmpty)
      try await Task.sleep(for: .milliseconds(1))  // exactly 300 ms after the last keystroke
      #expect(model.searches == ["sw"])
    }
    // end-snippet

    // snippet: app-view-model-trait
    @Test(.virtualTime) @MainActor
    func searchWaitsForAPauseInTyping() async throws {
      let scheduler = try #require(TestScheduler.current)
      let model = SearchModel()
      model.queryChanged("s")
      scheduler.advance(by: .milliseconds(100))
      model.queryChanged("sw")
      scheduler.advance(by: .milliseconds(299))
      #expect(model.searches.isEmpty)
      scheduler.advance(by: .milliseconds(1))  // exactly 300 ms after the last keystroke
      #expect(model.searches == ["sw"])
    }
    // end-snippet
  }
#endif

/// The same test without the trait, run by the examples: a scope around the test's body.
enum AppCodeDemo {
  @MainActor
  static func run() async {
    // snippet: app-view-model-scope
    let scheduler = TestScheduler()
    let searches = await scheduler.capturingAllTasks {
      let model = SearchModel()  // main-actor code, called directly from a @MainActor test
      model.queryChanged("s")
      scheduler.advance(by: .milliseconds(100))
      model.queryChanged("sw")
      scheduler.advance(by: .milliseconds(300))  // the plain Task.sleep wakes at exactly 400 ms
      return model.searches
    }
    assert(searches == ["sw"])
    // end-snippet
    print("  a main-actor view model with a plain Task.sleep, on virtual time: searched \(searches)")

    // snippet: app-view-model-settle
    let autoScheduler = TestScheduler()
    let (loaded, at) = await autoScheduler.capturingAllTasks {
      let model = SearchModel()
      model.queryChanged("swift")
      await autoScheduler.settle()  // everything at this instant has run; the clock has not moved
      assert(model.searches.isEmpty && autoScheduler.now == .zero)
      try? await Task.sleep(for: .seconds(1))  // the clock jumps to 300 ms, then to 1 s
      return (model.searches, autoScheduler.now)
    }
    assert(loaded == ["swift"] && at == SchedulerInstant.zero.advanced(by: .seconds(1)))
    // end-snippet
    print("  the same with auto-advance and settle(): searched \(loaded) by virtual \(at)")
  }
}

#if canImport(Testing)
  /// Migrating a swift-clocks test: the "before" (in comments; swift-clocks is not a dependency here)
  /// and the "after", compiled.
  struct MigratedFromSwiftClocks {
    // snippet: migration-swift-clocks
    // Before (swift-clocks + swift-concurrency-extras): the model takes a clock, the test wraps itself.
    //   @Test @MainActor func search() async {
    //     await withMainSerialExecutor {
    //       let clock = TestClock()
    //       let model = SearchModel(clock: clock)
    //       model.queryChanged("sw")
    //       await clock.advance(by: .milliseconds(300))  // yields, and hopes the task has run
    //       #expect(model.searches == ["sw"])
    //     }
    //   }
    // After: the model keeps its plain Task.sleep; the trait makes it virtual.
    @Test(.virtualTime) @MainActor
    func search() async throws {
      let scheduler = try #require(TestScheduler.current)
      let model = SearchModel()
      model.queryChanged("sw")
      scheduler.advance(by: .milliseconds(300))  // synchronous and exact
      #expect(model.searches == ["sw"])
    }
    // end-snippet
  }
#endif
