import AppPatterns
import AsyncSchedulers
import AsyncSchedulersTesting
import Synchronization
import XCTest

/// An XCTest team testing app code on virtual time: `capturingAllTasks` in XCTest `async` tests.
final class CapturingAllTasksUnderXCTestTests: XCTestCase {
  @MainActor
  func testAMainActorViewModelSearchesOnceTheTypingStopsForExactly300Milliseconds() async {
    let scheduler = TestScheduler()
    let model = SearchViewModel(search: { [$0] })
    await scheduler.capturingAllTasks {
      model.queryChanged("s")
      scheduler.advance(by: .milliseconds(100))
      model.queryChanged("sw")
      scheduler.advance(by: .milliseconds(299))
      XCTAssertEqual(model.searches, [])
      scheduler.advance(by: .milliseconds(1))
      XCTAssertEqual(model.searches, ["sw"])
    }
  }

  func testAnUnstructuredTaskSleepsOnVirtualTimeFromANonisolatedTest() async {
    let scheduler = TestScheduler()
    let woke = WakeLog()
    await scheduler.capturingAllTasks {
      Task {
        try? await Task.sleep(for: .seconds(5))
        woke.values.withLock { $0.append(scheduler.now.offset) }
      }
      scheduler.advance(by: .seconds(3_600))
    }
    XCTAssertEqual(woke.values.withLock { $0 }, [.seconds(5)])
  }
}

/// When a task woke, from any thread.
private final class WakeLog: Sendable {
  let values = Mutex<[Duration]>([])
}
