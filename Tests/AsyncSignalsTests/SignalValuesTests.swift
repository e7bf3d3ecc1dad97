import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Dispatch
import Synchronization
import Testing

/// A signal whose observer the test drives by hand.
final class ManualSignal<Element: Sendable, Failure: Error>: Sendable {
  private let observer = Mutex<SignalObserver<Element, Failure>?>(nil)
  let subscriptions = Log<Int>()
  let disposals = Log<Int>()

  var signal: Signal<Element, Failure> {
    Signal { observer in
      self.observer.withCriticalRegion { $0 = observer }
      self.subscriptions.append(1)
      return AnyDisposable { self.disposals.append(1) }
    }
  }

  var current: SignalObserver<Element, Failure>? { observer.withCriticalRegion { $0 } }
}

@Suite("Signal as an AsyncSequence")
struct SignalValuesTests {
  @Test("for await subscribes on the first next, gets every value in order, and ends with the signal")
  func iterates() async {
    let signal = Signal<Int, Never> { observer in
      for value in 1...5 { observer.send(value) }
      observer.finish()
      return nil
    }
    var values: [Int] = []
    for await value in signal { values.append(value) }
    #expect(values == [1, 2, 3, 4, 5])
  }

  @Test("a failure is thrown, typed, after the values sent before it")
  func failureAfterValues() async {
    let signal = Signal<Int, TestError> { observer in
      observer.send(1)
      observer.send(2)
      observer.fail(TestError(code: 7))
      return nil
    }
    var values: [Int] = []
    do {
      for try await value in signal { values.append(value) }
      Issue.record("no error")
    } catch {
      #expect(error == TestError(code: 7))
    }
    #expect(values == [1, 2])
  }

  @Test("leaving the loop disposes the subscription exactly once")
  func breakDisposes() async {
    let manual = ManualSignal<Int, Never>()
    let feeder = Task.detached {
      // Feed values until the loop has left (the subscription is disposed).
      while manual.disposals.values.isEmpty {
        manual.current?.send(1)
        await Task.yield()
      }
    }
    var count = 0
    for await _ in manual.signal {
      count += 1
      if count == 3 { break }
    }
    await feeder.value
    #expect(manual.disposals.values == [1])
    #expect(manual.subscriptions.values == [1])
  }

  @Test("cancelling the iterating task ends the loop and disposes the subscription exactly once")
  func cancellationDisposes() async {
    let manual = ManualSignal<Int, Never>()
    let started = Latch()
    let task = Task {
      var count = 0
      for await _ in manual.signal {
        count += 1
        started.signal()
      }
      return count
    }
    while manual.current == nil { await Task.yield() }
    manual.current?.send(1)
    #expect(await started.wait())
    task.cancel()
    #expect(await task.value == 1)
    #expect(manual.disposals.values == [1])
  }

  @Test("disposing on the producer side (finishing) ends the loop")
  func producerEndsLoop() async {
    let manual = ManualSignal<Int, Never>()
    let task = Task {
      var values: [Int] = []
      for await value in manual.signal { values.append(value) }
      return values
    }
    while manual.current == nil { await Task.yield() }
    manual.current?.send(1)
    manual.current?.finish()
    #expect(await task.value == [1])
    #expect(manual.disposals.values == [1])
  }

  @Test("bufferingNewest keeps the latest values and bufferingOldest the first, while nobody takes them")
  func boundedBuffers() async {
    let signal = Signal<Int, Never> { observer in
      for value in 1...10 { observer.send(value) }
      observer.finish()
      return nil
    }
    // The first next() subscribes and gets 1 directly; the rest are sent while nobody waits.
    var newest: [Int] = []
    for await value in signal.values(buffering: .bufferingNewest(3)) { newest.append(value) }
    var oldest: [Int] = []
    for await value in signal.values(buffering: .bufferingOldest(3)) { oldest.append(value) }
    var all: [Int] = []
    for await value in signal.values(buffering: .unbounded) { all.append(value) }
    #expect(newest == [8, 9, 10])
    #expect(oldest == [1, 2, 3])
    #expect(all == Array(1...10))
  }

  @Test("leaving a loop with buffered values whose deinit sends to the same signal does not deadlock")
  func droppedBufferDeinitReenters() async {
    let done = Latch()
    let received = Log<Int>()
    // On a scheduler's thread, not the cooperative pool: with the whole suite beside it (under
    // ThreadSanitizer, on two cores) a pool task can wait longer than the bound for a thread.
    Task(executorPreference: SerialScheduler(name: "deinit-reenters")) {
      let signal = Signal<ReentrantDeinit, Never> { observer in
        observer.send(ReentrantDeinit(id: 1) {})
        // Buffered (nobody waits while the loop body runs): released when the loop is left, and then
        // sends to this very subscription.
        observer.send(ReentrantDeinit(id: 2) { observer.send(ReentrantDeinit(id: 3) {}) })
        return nil
      }
      for await value in signal {
        received.append(value.id)
        break
      }
      done.signal()
    }
    // A deadlock fails the test instead of hanging it.
    #expect(await done.wait(timeout: .seconds(60)))
    #expect(received.values == [1])
  }

  @Test("a buffer size below one fails with a message naming it")
  func badBufferSize() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let signal = Signal<Int, Never> { _ in nil }
      var iterator = signal.values(buffering: .bufferingNewest(0)).makeAsyncIterator()
      _ = await iterator.next()
    }
    #expect(
      String(decoding: result.standardErrorContent, as: UTF8.self).contains("buffer size must be at least 1 (got 0)"))
  }
}

@Suite("Signal as an AsyncSequence under stress")
struct SignalValuesStressTests {
  @Test("10,000 races of send, finish and cancel: every loop ends, the subscription is disposed exactly once")
  func sendFinishCancelRaces() async {
    let rounds = 10_000 * ModelTesting.soak
    var leaked = 0
    var doubleDisposed = 0
    for round in 0..<rounds {
      let manual = ManualSignal<Int, Never>()
      let task = Task {
        var count = 0
        for await _ in manual.signal { count += 1 }
        return count
      }
      while manual.current == nil && !task.isCancelled { await Task.yield() }
      let observer = manual.current!
      let mode = round % 3
      DispatchQueue.global().async {
        observer.send(1)
        if mode != 0 { observer.finish() }
        observer.send(2)
      }
      if mode != 1 { task.cancel() }
      _ = await task.value
      // The subscription ends by finishing or by cancellation; either way exactly one disposal.
      let disposals = manual.disposals.values.count
      if mode == 0 && disposals == 0 { leaked += 1 }
      if disposals > 1 { doubleDisposed += 1 }
    }
    #expect(leaked == 0)
    #expect(doubleDisposed == 0)
  }
}
