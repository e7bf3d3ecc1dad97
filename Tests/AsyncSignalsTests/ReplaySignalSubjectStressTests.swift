import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSignals
import Synchronization
import Testing

/// Races of senders and subscribers on a `ReplaySignalSubject`, on threads of their own. Run by the soak
/// only (`ASYNC_SCHEDULERS_SOAK` above 1, as CI's soak step sets it), half that many times: in the plain
/// parallel suite on two cores, its five threads took 40 to 60 s to be created and handed each value
/// (the behaviour itself has deterministic tests in `ReplaySignalSubjectTests`).
@Suite(
  "ReplaySignalSubject under racing senders and subscribers (StressTests)",
  .enabled(if: ModelTesting.soak > 1, "a soak test: ASYNC_SCHEDULERS_SOAK above 1 runs it"))
struct ReplaySignalSubjectStressTests {
  @Test(
    "threads sending and subscribing at once: every subscriber of a full replay gets every value once, in order"
  )
  func concurrentSubscribersSeeEveryValueInOrder() {
    for _ in 0..<(ModelTesting.soak / 2) {
      let subject = ReplaySignalSubject<Int, Never>(capacity: .max)
      let count = 40
      let logs = (0..<4).map { _ in Log<Int>() }
      let subscriptions = Mutex<[any Disposable]>([])
      race(threads: 5) { thread in
        if thread == 0 {
          for value in 0..<count { subject.send(value) }
          subject.finish()
        } else {
          let log = logs[thread - 1]
          let subscription = subject.signal.subscribe { event in
            if case .next(let value) = event { log.append(value) }
          }
          subscriptions.withCriticalRegion { $0.append(subscription) }
        }
      }
      for log in logs { #expect(log.values == Array(0..<count)) }
      for subscription in subscriptions.withCriticalRegion({ $0 }) { subscription.dispose() }
    }
  }
}
