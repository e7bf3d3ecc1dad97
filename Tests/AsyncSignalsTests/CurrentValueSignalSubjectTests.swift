import AsyncSchedulersTestSupport
import AsyncSignals
import Dispatch
import Synchronization
import Testing

@testable import AsyncSchedulers

@Suite("CurrentValueSignalSubject")
struct CurrentValueSignalSubjectTests {
  @Test("value does not change after the end, and new subscribers get the same value")
  func valueIsFrozenAtTheEnd() {
    let subject = CurrentValueSignalSubject<Int, Never>(1)
    subject.send(2)
    subject.finish()
    subject.send(99)
    #expect(subject.value == 2)
    let log = Log<Int>()
    let subscription = subject.signal.subscribe { event in
      if case .next(let value) = event { log.append(value) }
    }
    #expect(log.values == [2])
    subscription.dispose()
  }

  @Test("value always equals the last value delivered, with four threads sending at once (StressTests)")
  func valueFollowsDeliveryOrder() async {
    let rounds = ThreadSanitizerHooks.shared == nil ? 3_000 * ModelTesting.soak : 100
    // Seconds of CPU: on a thread of its own, not one of the cooperative pool's (see onModelThread).
    let mismatches = await onModelThread {
      var mismatches = 0
      for _ in 0..<rounds {
        let subject = CurrentValueSignalSubject<Int, Never>(0)
        let lastDelivered = Mutex(0)
        let subscription = subject.signal.subscribe { event in
          if case .next(let value) = event { lastDelivered.withCriticalRegion { $0 = value } }
        }
        DispatchQueue.concurrentPerform(iterations: 4) { sender in
          for value in 1...20 { subject.send(sender * 100 + value) }
        }
        if subject.value != lastDelivered.withCriticalRegion({ $0 }) { mismatches += 1 }
        subscription.dispose()
      }
      return mismatches
    }
    #expect(mismatches == 0)
  }
}
