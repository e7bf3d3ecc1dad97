import AsyncSchedulersRxBridge
import AsyncSchedulersRxBridgeTesting

/// An RxTest test, unchanged but for the imports (this file imports only the Rx bridge and its testing
/// module, so `TestScheduler` is RxTest's).
enum RxTestSnippets {
  static func run() {
    // snippet: rx-test
    let scheduler = TestScheduler(initialClock: 0)
    let xs = scheduler.createHotObservable([
      .next(210, 1), .next(220, 2), .next(300, 3), .completed(400),
    ])
    let res = scheduler.start { xs.debounce(.seconds(20), scheduler: scheduler) }
    assert(res.events == [.next(240, 2), .next(320, 3), .completed(400)])
    assert(xs.subscriptions == [Subscription(200, 400)])
    // end-snippet
    print("  RxTest: \(res.events)")
  }
}
