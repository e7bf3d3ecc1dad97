import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSignals
import Foundation
import Synchronization
import Testing

@Suite("ReplaySignalSubject: a new subscriber's replay runs on its own thread, with nothing of the subject held")
struct ReplaySignalSubjectTests {
  @Test("a replay handler may wait for a lock held by a thread that is subscribing meanwhile (no lock inversion)")
  func replayHandlerWaitsForAnotherSubscribersLock() async {
    // On a thread of its own: the test blocks, and must not hold a cooperative thread meanwhile.
    let results = await onDedicatedThread { () -> [Bool] in
      (0..<3).map { _ in Self.replayWaitsForForeignLock() }
    }
    #expect(results == [true, true, true])
  }

  /// One round: whether the replay handler got the lock the other subscribing thread held.
  private static func replayWaitsForForeignLock() -> Bool {
    do {
      let subject = ReplaySignalSubject<Int, Never>(capacity: 1)
      subject.send(1)
      let foreign = NSLock()
      let foreignHeld = DispatchSemaphore(value: 0)
      let replayStarted = DispatchSemaphore(value: 0)
      let acquired = Atomic<Bool>(false)
      let done = DispatchGroup()
      done.enter()
      Thread.detachNewThread {
        foreign.lock()
        foreignHeld.signal()
        replayStarted.wait()
        let subscription = subject.signal.subscribe { (_: SignalEvent<Int, Never>) in }
        foreign.unlock()
        subscription.dispose()
        done.leave()
      }
      done.enter()
      Thread.detachNewThread {
        foreignHeld.wait()
        let subscription = subject.signal.subscribe { (_: SignalEvent<Int, Never>) in
          replayStarted.signal()
          // Before: the replay ran in the subject's turn, which the other thread's subscribe waited for.
          if foreign.lock(before: Date(timeIntervalSinceNow: 5)) {
            foreign.unlock()
            acquired.store(true, ordering: .relaxed)
          }
        }
        subscription.dispose()
        done.leave()
      }
      done.wait()
      return acquired.load(ordering: .relaxed)
    }
  }

  @Test("a value sent from another thread while a subscriber replays reaches it after the replay, in order")
  func liveEventsWaitForTheReplay() async {
    // On a thread of its own: the handler blocks while the other thread sends.
    let (received, sentInTime) = await onDedicatedThread { Self.sendDuringReplay() }
    #expect(sentInTime)
    #expect(received == [1, 2, 3, 4])
  }

  /// Subscribes to a subject holding 1 and 2; while 1 is replayed, another thread sends 3; then 4 is
  /// sent. What the subscriber got, and whether the other thread's send returned within 5 s.
  private static func sendDuringReplay() -> (received: [Int], sentInTime: Bool) {
    let subject = ReplaySignalSubject<Int, Never>(capacity: .max)
    subject.send(1)
    subject.send(2)
    let received = Mutex<[Int]>([])
    let sentMeanwhile = DispatchSemaphore(value: 0)
    let sentInTime = Atomic<Bool>(false)
    let subscription = subject.signal.subscribe { event in
      guard case .next(let value) = event else { return }
      received.withCriticalRegion { $0.append(value) }
      if value == 1 {
        // Another thread sends while this handler replays: the send completes without waiting for it.
        Thread.detachNewThread {
          subject.send(3)
          sentMeanwhile.signal()
        }
        sentInTime.store(sentMeanwhile.wait(timeout: .now() + 5) == .success, ordering: .relaxed)
      }
    }
    subject.send(4)
    subscription.dispose()
    return (received.withCriticalRegion { $0 }, sentInTime.load(ordering: .relaxed))
  }

  @Test("a subscription made from a handler of the subject gets the replay, then what comes next")
  func reentrantSubscriptionGetsTheReplay() {
    let subject = ReplaySignalSubject<Int, Never>(capacity: 2)
    subject.send(1)
    let inner = Mutex<[Int]>([])
    let innerSubscription = Mutex<(any Disposable)?>(nil)
    let outer = subject.signal.subscribe { event in
      guard case .next(2) = event else { return }
      let subscription = subject.signal.subscribe { event in
        if case .next(let value) = event { inner.withCriticalRegion { $0.append(value) } }
      }
      innerSubscription.withCriticalRegion { $0 = subscription }
    }
    subject.send(2)
    subject.send(3)
    #expect(inner.withCriticalRegion { $0 } == [1, 2, 3])
    outer.dispose()
    innerSubscription.withCriticalRegion { $0?.dispose() }
  }
}
