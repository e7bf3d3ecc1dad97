import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSignals
import Foundation
import Synchronization
import Testing

@Suite("ReplaySignalSubject: a new subscriber's replay runs on its own thread, with nothing of the subject held")
struct ReplaySignalSubjectTests {
  @Test("a replay handler may wait for a lock held by a thread that is subscribing meanwhile (no lock inversion)")
  func replayHandlerWaitsForAnotherSubscribersLock() {
    for _ in 0..<3 {
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
      let replayGotTheLock = acquired.load(ordering: .relaxed)
      #expect(replayGotTheLock)
    }
  }

  @Test("a value sent from another thread while a subscriber replays reaches it after the replay, in order")
  func liveEventsWaitForTheReplay() {
    let subject = ReplaySignalSubject<Int, Never>(capacity: .max)
    subject.send(1)
    subject.send(2)
    let received = Mutex<[Int]>([])
    let sentMeanwhile = DispatchSemaphore(value: 0)
    let subscription = subject.signal.subscribe { event in
      guard case .next(let value) = event else { return }
      received.withCriticalRegion { $0.append(value) }
      if value == 1 {
        // Another thread sends while this handler replays: the send completes without waiting for it.
        Thread.detachNewThread {
          subject.send(3)
          sentMeanwhile.signal()
        }
        #expect(sentMeanwhile.wait(timeout: .now() + 5) == .success)
      }
    }
    #expect(received.withCriticalRegion { $0 } == [1, 2, 3])
    subject.send(4)
    #expect(received.withCriticalRegion { $0 } == [1, 2, 3, 4])
    subscription.dispose()
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

  @Test(
    "threads sending and subscribing at once: every subscriber of a full replay gets every value once, in order (StressTests)"
  )
  func concurrentSubscribersSeeEveryValueInOrder() {
    for _ in 0..<(20 * ModelTesting.soak) {
      let subject = ReplaySignalSubject<Int, Never>(capacity: .max)
      let count = 300
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
