import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Dispatch
import Foundation
import Synchronization
import Testing

struct TestError: Error, Equatable {
  var code = 1
}

@Suite("Signal")
struct SignalTests {
  @Test("the subscribe closure runs once per subscription, and its disposable is disposed after the terminal event")
  func coldAndDisposalOrder() {
    let log = Log<String>()
    let subscriptions = Log<Int>()
    let signal = Signal<Int, Never> { observer in
      subscriptions.append(1)
      observer.send(1)
      observer.send(2)
      observer.finish()
      return AnyDisposable { log.append("dispose") }
    }
    signal.subscribe(next: { log.append("\($0)") }, finished: { log.append("finished") })
    #expect(log.values == ["1", "2", "finished", "dispose"])
    signal.subscribe(next: { _ in })
    #expect(subscriptions.values.count == 2)
  }

  @Test("nothing is delivered after a terminal event, and resources are disposed exactly once")
  func grammarAfterTerminal() {
    let log = Log<String>()
    let disposals = Log<Int>()
    let signal = Signal<Int, TestError> { observer in
      observer.send(1)
      observer.fail(TestError())
      observer.send(2)
      observer.finish()
      observer.fail(TestError(code: 2))
      return AnyDisposable { disposals.append(1) }
    }
    let subscription = signal.subscribe(next: { log.append("next \($0)") }, failed: { log.append("failed \($0.code)") })
    subscription.dispose()
    #expect(log.values == ["next 1", "failed 1"])
    #expect(disposals.values == [1])
    #expect(subscription.isTerminated)
  }

  @Test("disposing stops delivery and disposes the producer's resources once, also from inside a handler")
  func disposeFromHandler() {
    let log = Log<Int>()
    let disposals = Log<Int>()
    let observerBox = Mutex<SignalObserver<Int, Never>?>(nil)
    let signal = Signal<Int, Never> { observer in
      observerBox.withCriticalRegion { $0 = observer }
      return AnyDisposable { disposals.append(1) }
    }
    let subscription = Mutex<SignalSubscription<Int, Never>?>(nil)
    subscription.withCriticalRegion {
      $0 = signal.subscribe(next: { value in
        log.append(value)
        if value == 2 { subscription.withCriticalRegion { $0 }?.dispose() }
      })
    }
    let observer = observerBox.withCriticalRegion { $0 }!
    for value in 1...4 { observer.send(value) }
    #expect(log.values == [1, 2])
    #expect(disposals.values == [1])
    #expect(observer.isTerminated)
    subscription.withCriticalRegion { $0 }?.dispose()
    #expect(disposals.values == [1])
  }

  @Test(
    "a send says whether the subscription is still open: after the end, after a dispose from the handler, re-entrantly")
  func sendReportsWhetherOpen() {
    let observerBox = Mutex<SignalObserver<Int, Never>?>(nil)
    let signal = Signal<Int, Never> { observer in
      observerBox.withCriticalRegion { $0 = observer }
      return nil
    }
    let reentrant = Mutex<[Bool]>([])
    let subscription = Mutex<SignalSubscription<Int, Never>?>(nil)
    subscription.withCriticalRegion {
      $0 = signal.subscribe(next: { value in
        let observer = observerBox.withCriticalRegion { $0 }!
        // Queued behind this delivery: still open; a queued end closes it at once.
        if value == 1 { reentrant.withLock { $0.append(observer.sendReportingOpen(.next(10))) } }
        if value == 2 { reentrant.withLock { $0.append(observer.sendReportingOpen(.finished)) } }
      })
    }
    let observer = observerBox.withCriticalRegion { $0 }!
    #expect(observer.sendReportingOpen(.next(1)))
    #expect(!observer.sendReportingOpen(.next(2)))
    #expect(reentrant.withLock { $0 } == [true, false])
    #expect(!observer.sendReportingOpen(.next(3)))

    let disposing = Signal<Int, Never> { observer in
      observerBox.withCriticalRegion { $0 = observer }
      return nil
    }
    subscription.withCriticalRegion {
      $0 = disposing.subscribe(next: { value in
        if value == 2 { subscription.withCriticalRegion { $0 }?.dispose() }
      })
    }
    let second = observerBox.withCriticalRegion { $0 }!
    #expect(second.sendReportingOpen(.next(1)))
    #expect(!second.sendReportingOpen(.next(2)))
    #expect(!second.sendReportingOpen(.next(3)))
  }

  @Test("a value sent re-entrantly from a handler is delivered after the current one, not inside it")
  func reentrantSendIsQueued() {
    let log = Log<String>()
    let observerBox = Mutex<SignalObserver<Int, Never>?>(nil)
    let signal = Signal<Int, Never> { observer in
      observerBox.withCriticalRegion { $0 = observer }
      return nil
    }
    signal.subscribe(next: { value in
      log.append("begin \(value)")
      if value == 1 { observerBox.withCriticalRegion { $0 }?.send(2) }
      log.append("end \(value)")
    })
    observerBox.withCriticalRegion { $0 }?.send(1)
    #expect(log.values == ["begin 1", "end 1", "begin 2", "end 2"])
  }

  @Test("a queued value whose deinit sends to the same subscription, dropped by dispose, does not deadlock")
  func droppedValueDeinitReenters() async {
    // The value queued behind the one being delivered is dropped when the handler disposes; its deinit
    // sends to the same observer. Dropped under the observer's lock, it would deadlock on that lock.
    let done = Latch()
    let log = Log<Int>()
    Thread.detachNewThread {
      let observerBox = Mutex<SignalObserver<ReentrantDeinit, Never>?>(nil)
      let signal = Signal<ReentrantDeinit, Never> { observer in
        observerBox.withCriticalRegion { $0 = observer }
        return nil
      }
      let subscription = Mutex<SignalSubscription<ReentrantDeinit, Never>?>(nil)
      subscription.withCriticalRegion {
        $0 = signal.subscribe(next: { value in
          log.append(value.id)
          guard value.id == 1 else { return }
          let observer = observerBox.withCriticalRegion { $0 }!
          observer.send(ReentrantDeinit(id: 2) { observer.send(ReentrantDeinit(id: 3) {}) })
          subscription.withCriticalRegion { $0 }?.dispose()
        })
      }
      observerBox.withCriticalRegion { $0 }!.send(ReentrantDeinit(id: 1) {})
      done.signal()
    }
    // A deadlock fails the test (the stuck thread is abandoned) instead of hanging it.
    #expect(await done.wait(timeout: .seconds(60)))
    #expect(log.values == [1])
  }
}

@Suite("Signal under stress")
struct SignalStressTests {
  @Test("a send waits only for events sent before it: a producer flooding the signal does not hold the first sender")
  func sendIsNotHeldByLaterSends() async {
    let duration = await onDedicatedThread { () -> Duration in
      let observerBox = Mutex<SignalObserver<Int, Never>?>(nil)
      let signal = Signal<Int, Never> { observer in
        observerBox.withCriticalRegion { $0 = observer }
        return nil
      }
      let producerStarted = Atomic<Bool>(false)
      let stop = Atomic<Bool>(false)
      signal.subscribe(next: { value in
        if value == 0 {
          // The first sender is delivering: let the producer start flooding meanwhile.
          while !producerStarted.load(ordering: .acquiring) { sched_yield() }
          Thread.sleep(forTimeInterval: 0.005)
        }
        Thread.sleep(forTimeInterval: 0.0002)  // a slow subscriber
      })
      let observer = observerBox.withCriticalRegion { $0 }!
      let producer = Thread {
        producerStarted.store(true, ordering: .releasing)
        var value = 1
        let flooding = ContinuousClock.now
        // At most 2,000 events (400 ms of the subscriber's time) in at most a second, so a first send
        // held by the flood (the defect) still returns, late.
        while !stop.load(ordering: .acquiring) && value <= 2_000 && ContinuousClock.now - flooding < .seconds(1) {
          observer.send(value)
          value += 1
        }
      }
      producer.start()
      let clock = ContinuousClock()
      let start = clock.now
      observer.send(0)
      let elapsed = clock.now - start
      Thread.sleep(forTimeInterval: 0.05)
      stop.store(true, ordering: .releasing)
      observer.finish()
      return elapsed
    }
    // Its own event (5 ms) and at most one of the producer's (0.2 ms): not the producer's flood (2,000
    // events, 400 ms).
    #expect(duration < .milliseconds(250), "the first send took \(duration)")
  }

  @Test("8 threads sending at once: events never overlap, each thread's order is kept, nothing after the end")
  func concurrentSendsAreSerialized() async {
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
        let observerBox = Mutex<SignalObserver<(Int, Int), Never>?>(nil)
        let signal = Signal<(Int, Int), Never> { observer in
          observerBox.withCriticalRegion { $0 = observer }
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
            seen.withCriticalRegion { seen in
              if let last = seen[thread], last >= index { disorder.wrappingAdd(1, ordering: .relaxed) }
              seen[thread] = index
            }
          case .finished:
            ended.store(true, ordering: .releasing)
          }
          inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
        let observer = observerBox.withCriticalRegion { $0 }!
        let group = DispatchGroup()
        for thread in 0..<8 {
          DispatchQueue.global().async(group: group) {
            for index in 0..<100 {
              observer.send((thread, index))
              if thread == 7 && index == 90 { observer.finish() }
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
}

@Suite("Signal bad input")
struct SignalBadInputTests {
  @Test("negative intervals and counts fail with a message naming the operator")
  func negativeArguments() async throws {
    let delay = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never().delay(.seconds(-1), on: ImmediateScheduler.shared)
    }
    #expect(
      String(decoding: delay.standardErrorContent, as: UTF8.self).contains(
        "Signal.delay: interval must not be negative (got -1.0 seconds)"))
    let take = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<Int, Never>.never().take(-1)
    }
    #expect(
      String(decoding: take.standardErrorContent, as: UTF8.self).contains(
        "Signal.take: count must not be negative (got -1)"))
    let interval = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Signal<SchedulerInstant, Never>.interval(.zero, on: ImmediateScheduler.shared)
    }
    #expect(
      String(decoding: interval.standardErrorContent, as: UTF8.self).contains(
        "Signal.interval: interval must be greater than zero"))
  }

  @Test("subscribing from inside a handler works")
  func subscribeFromHandler() {
    let log = Log<String>()
    let inner = Signal<Int, Never>.just(2)
    Signal<Int, Never>.just(1).subscribe(next: { value in
      log.append("outer \(value)")
      inner.subscribe(next: { log.append("inner \($0)") })
    })
    #expect(log.values == ["outer 1", "inner 2"])
  }
}

/// A value that runs `onDeinit` when released (to re-enter whatever released it).
final class ReentrantDeinit: Sendable {
  let id: Int
  let onDeinit: @Sendable () -> Void
  init(id: Int, _ onDeinit: @escaping @Sendable () -> Void) {
    self.id = id
    self.onDeinit = onDeinit
  }
  deinit { onDeinit() }
}
