import AsyncSchedulersTestSupport
import AsyncSignals
import Dispatch
import Synchronization
import Testing

@testable import AsyncSchedulers

/// `SignalObserver.sendAll`: a batch of sends from one thread (what `Observable.from` and
/// `observe(on:)`'s delivery use) keeps every guarantee of the separate sends.
@Suite("SignalObserver batch sends")
struct SignalObserverBatchTests {
  /// A subscription logging what it gets, and its source's observer.
  private func subscribed(
    _ onEvent: @escaping @Sendable (SignalEvent<Int, Never>, SignalObserver<Int, Never>) -> Void = { _, _ in }
  ) -> (observer: SignalObserver<Int, Never>, log: Log<String>, subscription: SignalSubscription<Int, Never>) {
    let box = Mutex<SignalObserver<Int, Never>?>(nil)
    let log = Log<String>()
    let subscription = Signal<Int, Never> { observer in
      box.withLock { $0 = observer }
      return nil
    }
    .subscribe { event in
      switch event {
      case .next(let value): log.append("\(value)")
      case .finished: log.append("finished")
      }
      onEvent(event, box.withLock { $0 }!)
    }
    return (box.withLock { $0 }!, log, subscription)
  }

  @Test("a batch is delivered in order and reports the subscription still open; an empty one too")
  func inOrder() {
    let (observer, log, _) = subscribed()
    #expect(observer.sendAll((1...5).map { .next($0) }))
    #expect(observer.sendAll([]))
    #expect(log.values == ["1", "2", "3", "4", "5"])
  }

  @Test("a batch stops at its own end: nothing of it after the end is delivered, and it reports closed")
  func stopsAtItsEnd() {
    let (observer, log, _) = subscribed()
    #expect(!observer.sendAll([.next(1), .finished, .next(2)]))
    #expect(!observer.sendAll([.next(3)]))
    #expect(log.values == ["1", "finished"])
  }

  @Test("a value sent re-entrantly during a batch comes right after the current value, before the batch goes on")
  func reentrantSendGoesFirst() {
    let (observer, log, _) = subscribed { event, observer in
      if case .next(2) = event { observer.send(20) }
    }
    #expect(observer.sendAll((1...4).map { .next($0) }))
    #expect(log.values == ["1", "2", "20", "3", "4"])
  }

  @Test("an end sent re-entrantly during a batch stops it after the current value")
  func reentrantEndStops() {
    let (observer, log, _) = subscribed { event, observer in
      if case .next(2) = event { observer.finish() }
    }
    #expect(!observer.sendAll((1...4).map { .next($0) }))
    #expect(log.values == ["1", "2", "finished"])
  }

  @Test("disposing from the handler stops the batch at once")
  func disposeStops() {
    let subscriptionBox = Mutex<SignalSubscription<Int, Never>?>(nil)
    let (observer, log, subscription) = subscribed { event, _ in
      if case .next(3) = event { subscriptionBox.withLock { $0 }?.dispose() }
    }
    subscriptionBox.withLock { $0 = subscription }
    #expect(!observer.sendAll((1...6).map { .next($0) }))
    #expect(log.values == ["1", "2", "3"])
    #expect(observer.isTerminated)
  }

  @Test("a batch's end disposes the producer's resources once; an empty batch then reports closed")
  func endDisposesResourcesOnce() {
    let disposals = Atomic<Int>(0)
    let box = Mutex<SignalObserver<Int, Never>?>(nil)
    let log = Log<String>()
    let subscription = Signal<Int, Never> { observer in
      box.withLock { $0 = observer }
      return AnyDisposable { disposals.wrappingAdd(1, ordering: .relaxed) }
    }
    .subscribe(next: { log.append("\($0)") }, finished: { log.append("finished") })
    let observer = box.withLock { $0 }!
    #expect(!observer.sendAll([.next(1), .finished]))
    #expect(disposals.load(ordering: .relaxed) == 1)
    subscription.dispose()
    #expect(disposals.load(ordering: .relaxed) == 1)
    #expect(!observer.sendAll([]))
    #expect(log.values == ["1", "finished"])
  }

  @Test("a re-entrant send on a batch's last value, and a batch sent from a handler, come after the current value")
  func reentrantAtTheEdges() {
    let (observer, log, _) = subscribed { event, observer in
      if case .next(3) = event { observer.send(30) }
      if case .next(30) = event { #expect(observer.sendAll([.next(31), .next(32)])) }
    }
    #expect(observer.sendAll((1...3).map { .next($0) }))
    #expect(log.values == ["1", "2", "3", "30", "31", "32"])
  }
}

/// Races between senders, batches and disposal (repeated more under the soak).
@Suite("SignalObserver stress")
struct SignalObserverStressTests {
  @Test(
    "batches from 4 threads and single sends from 4 more: never overlapping, each thread's order kept, nothing after the end"
  )
  func concurrentBatches() async {
    let outcome = await onDedicatedThread { () -> (overlaps: Int, outOfOrder: Int, afterEnd: Int, total: Int) in
      var overlaps = 0
      var outOfOrder = 0
      var afterEnd = 0
      var total = 0
      for _ in 0..<50 * ModelTesting.soak {
        let inside = Atomic<Int>(0)
        let overlapCount = Atomic<Int>(0)
        let ended = Atomic<Bool>(false)
        let afterEndCount = Atomic<Int>(0)
        let seen = Mutex<[Int: Int]>([:])
        let disorder = Atomic<Int>(0)
        let received = Atomic<Int>(0)
        let box = Mutex<SignalObserver<(Int, Int), Never>?>(nil)
        let signal = Signal<(Int, Int), Never> { observer in
          box.withLock { $0 = observer }
          return nil
        }
        signal.subscribe { event in
          if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue > 1 {
            overlapCount.wrappingAdd(1, ordering: .relaxed)
          }
          if ended.load(ordering: .acquiring) { afterEndCount.wrappingAdd(1, ordering: .relaxed) }
          switch event {
          case .next(let (thread, index)):
            received.wrappingAdd(1, ordering: .relaxed)
            seen.withLock { seen in
              if let last = seen[thread], last >= index { disorder.wrappingAdd(1, ordering: .relaxed) }
              seen[thread] = index
            }
            // Now and then a re-entrant send, queued behind this one.
            if index == 50 { box.withLock { $0 }!.send((thread + 100, 0)) }
          case .finished:
            ended.store(true, ordering: .releasing)
          }
          inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
        let observer = box.withLock { $0 }!
        let group = DispatchGroup()
        for thread in 0..<8 {
          DispatchQueue.global().async(group: group) {
            if thread < 4 {
              for start in stride(from: 0, to: 100, by: 25) {
                _ = observer.sendAll((start..<start + 25).map { .next((thread, $0)) })
              }
            } else {
              for index in 0..<100 {
                observer.send((thread, index))
                if thread == 7 && index == 90 { observer.finish() }
              }
            }
          }
        }
        group.wait()
        overlaps += overlapCount.load(ordering: .relaxed)
        outOfOrder += disorder.load(ordering: .relaxed)
        afterEnd += afterEndCount.load(ordering: .relaxed)
        total += received.load(ordering: .relaxed)
      }
      return (overlaps, outOfOrder, afterEnd, total)
    }
    #expect(outcome.overlaps == 0)
    #expect(outcome.outOfOrder == 0)
    #expect(outcome.afterEnd == 0)
    #expect(outcome.total > 0)
  }

  @Test(
    "a dispose racing senders that wait their turn releases the subscriber's handler, whatever the interleaving")
  func disposeRacingWaitersReleasesTheHandler() async {
    let leaked = await onDedicatedThread { () -> Int in
      var leaked = 0
      for _ in 0..<300 * ModelTesting.soak {
        let lifetimes = LifetimeCounter()
        let box = Mutex<SignalObserver<Int, Never>?>(nil)
        let subscription: SignalSubscription<Int, Never> = {
          let token = lifetimes.make()
          return Signal<Int, Never> { observer in
            box.withLock { $0 = observer }
            return nil
          }
          .subscribe { (_: SignalEvent<Int, Never>) in withExtendedLifetime(token) {} }
        }()
        let observer = box.withLock { $0 }!
        let group = DispatchGroup()
        for thread in 0..<3 {
          DispatchQueue.global().async(group: group) {
            for index in 0..<20 { observer.send(thread * 100 + index) }
          }
        }
        DispatchQueue.global().async(group: group) { subscription.dispose() }
        group.wait()
        // The subscription has ended and nothing is sending: nothing may keep the handler.
        if lifetimes.count > 0 { leaked += 1 }
        withExtendedLifetime(observer) {}
      }
      return leaked
    }
    #expect(leaked == 0, "the handler outlived its disposed subscription in \(leaked) runs")
  }
}
