import AsyncSchedulers
import AsyncSchedulersTesting
import Synchronization

// snippet: debounce-feature
/// A search box that waits for a 300 ms pause in typing before searching.
actor SearchBox {
  let scheduler: any ActorScheduler
  nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.unownedSerialExecutor }
  let search: @Sendable (String) -> Void
  private var pending: Task<Void, Never>?

  init(scheduler: any ActorScheduler, search: @escaping @Sendable (String) -> Void) {
    self.scheduler = scheduler
    self.search = search
  }

  func type(_ query: String) {
    pending?.cancel()
    pending = Task(executorPreference: scheduler) { [scheduler, search] in
      do { try await scheduler.sleep(for: .milliseconds(300)) } catch { return }
      search(query)
    }
  }
}
// end-snippet

enum VirtualTimeDemo {
  static func run() {
    // snippet: debounce-test
    let scheduler = TestScheduler()
    let searches = TestRecorder<String>(scheduler: scheduler)
    let box = SearchBox(scheduler: scheduler) { searches.record($0) }
    Task(executorPreference: scheduler) {
      await box.type("s")
      try await scheduler.sleep(for: .milliseconds(100))
      await box.type("sw")
    }
    scheduler.advance(by: .milliseconds(399))  // 299 ms after the last keystroke: nothing yet
    assert(searches.events.isEmpty)
    scheduler.advance(by: .milliseconds(1))  // exactly 300 ms: the search runs, synchronously
    assert(searches.events.count == 1)
    // end-snippet
    print("  searches on virtual time: \(searches.events) (timeline \(searches.timeline(tick: .milliseconds(100))))")
    scheduler.expectNoPendingWork()
  }
}

/// The same test as people write it today with a real clock (not run by the examples).
enum FlakyVersion {
  // snippet: flaky-test
  static func searchRunsAfterAPause() async throws -> Bool {
    let searches = Counter()
    let box = SearchBox(scheduler: SerialScheduler()) { _ in searches.increment() }
    await box.type("swift")
    try await Task.sleep(for: .milliseconds(350))  // 300 ms of debounce, plus 50 ms that "should be enough"
    return searches.value == 1  // false whenever the machine is busy for 50 ms; and the test takes 350 ms
  }
  // end-snippet
}

/// A thread-safe counter for the examples.
final class Counter: Sendable {
  private let count = Atomic<Int>(0)
  func increment() { count.wrappingAdd(1, ordering: .relaxed) }
  var value: Int { count.load(ordering: .relaxed) }
}
