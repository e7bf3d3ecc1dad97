import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Synchronization
import Testing

@testable import AsyncSchedulers

@Suite("share(replay:)")
struct ShareTests {
  /// A hot source that counts its subscriptions and disposals.
  final class Source: Sendable {
    let subscriptions = Atomic<Int>(0)
    let disposals = Atomic<Int>(0)
    let observers = Log<SignalObserver<Int, TestError>>()

    var signal: Signal<Int, TestError> {
      Signal { observer in
        self.subscriptions.wrappingAdd(1, ordering: .relaxed)
        self.observers.append(observer)
        return AnyDisposable { self.disposals.wrappingAdd(1, ordering: .relaxed) }
      }
    }

    func send(_ event: SignalEvent<Int, TestError>) { observers.values.last!.send(event) }
  }

  @Test("subscribers share one upstream subscription, disposed when the last leaves")
  func referenceCounting() {
    let source = Source()
    let shared = source.signal.share()
    let first = Log<Int>()
    let second = Log<Int>()
    let a = shared.subscribe(next: { first.append($0) })
    source.send(.next(1))
    let b = shared.subscribe(next: { second.append($0) })
    source.send(.next(2))
    #expect(source.subscriptions.load(ordering: .relaxed) == 1)
    a.dispose()
    source.send(.next(3))
    #expect(source.disposals.load(ordering: .relaxed) == 0)
    b.dispose()
    #expect(source.disposals.load(ordering: .relaxed) == 1)
    #expect(first.values == [1, 2])
    #expect(second.values == [2, 3])
  }

  @Test("a subscriber after everyone left connects anew")
  func reconnects() {
    let source = Source()
    let shared = source.signal.share()
    shared.subscribe(next: { _ in }).dispose()
    let log = Log<Int>()
    let again = shared.subscribe(next: { log.append($0) })
    source.send(.next(7))
    #expect(source.subscriptions.load(ordering: .relaxed) == 2)
    #expect(log.values == [7])
    again.dispose()
    #expect(source.disposals.load(ordering: .relaxed) == 2)
  }

  @Test("share(replay:) replays the latest values of the current connection to a new subscriber")
  func replays() {
    let source = Source()
    let shared = source.signal.share(replay: 2)
    let a = shared.subscribe(next: { _ in })
    for value in 1...3 { source.send(.next(value)) }
    let log = Log<Int>()
    let b = shared.subscribe(next: { log.append($0) })
    source.send(.next(4))
    #expect(log.values == [2, 3, 4])
    a.dispose()
    b.dispose()
    // A new connection starts with an empty replay.
    let fresh = Log<Int>()
    let c = shared.subscribe(next: { fresh.append($0) })
    #expect(fresh.values.isEmpty)
    c.dispose()
  }

  @Test("after the upstream ends, its subscribers get the end and the next subscriber runs a cold signal again")
  func endThenReconnect() {
    let runs = Atomic<Int>(0)
    let cold = Signal<Int, TestError> { observer in
      let run = runs.wrappingAdd(1, ordering: .relaxed).newValue
      observer.send(run)
      observer.finish()
      return nil
    }
    let shared = cold.share()
    let log = Log<String>()
    for _ in 0..<2 {
      _ = shared.subscribe { (event: SignalEvent<Int, TestError>) in log.append("\(event)") }
    }
    #expect(log.values == ["next(1)", "finished", "next(2)", "finished"])
  }

  @Test("a failure reaches every subscriber of the connection")
  func failure() {
    let source = Source()
    let shared = source.signal.share()
    let log = Log<String>()
    for name in ["a", "b"] {
      _ = shared.subscribe { (event: SignalEvent<Int, TestError>) in log.append("\(name): \(event)") }
    }
    source.send(.failed(TestError()))
    #expect(
      log.values == [
        "a: failed(AsyncSignalsTests.TestError(code: 1))", "b: failed(AsyncSignalsTests.TestError(code: 1))",
      ])
    #expect(source.subscriptions.load(ordering: .relaxed) == 1)
  }

  @Test("a shared timer on a TestScheduler ticks once per instant for every subscriber")
  func sharedTimer() {
    let scheduler = TestScheduler()
    let ticks = Signal<Int, Never>.timer(after: .seconds(1), period: .seconds(1), on: scheduler).share()
    let log = Log<String>()
    let a = ticks.subscribe(next: { log.append("a\($0)@\(scheduler.now.offset.components.seconds)") })
    scheduler.advance(by: .seconds(1))
    let b = ticks.subscribe(next: { log.append("b\($0)@\(scheduler.now.offset.components.seconds)") })
    scheduler.advance(by: .seconds(1))
    a.dispose()
    b.dispose()
    scheduler.advance(by: .seconds(5))
    #expect(log.values == ["a0@1", "a1@2", "b1@2"])
    #expect(scheduler.pendingCount == 0)
  }

  @Test(
    "subscribers arriving and leaving from 8 threads: each connection's upstream is disposed exactly once (StressTests)"
  )
  func stress() async {
    let problems = await onDedicatedThread { () -> [String] in
      var problems: [String] = []
      for round in 0..<(ThreadSanitizerHooks.shared == nil ? 50 : 5) * ModelTesting.soak {
        let source = Source()
        let shared = source.signal.share(replay: 1)
        let overlaps = Atomic<Int>(0)
        race { thread in
          for index in 0..<100 {
            let inside = Atomic<Int>(0)
            let subscription = shared.subscribe(next: { _ in
              if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue > 1 {
                overlaps.wrappingAdd(1, ordering: .relaxed)
              }
              inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            })
            if index % 3 == thread % 3 { source.observers.values.last?.send(index) }
            subscription.dispose()
          }
        }
        let subscribed = source.subscriptions.load(ordering: .acquiring)
        let disposed = source.disposals.load(ordering: .acquiring)
        if subscribed != disposed {
          problems.append("round \(round): \(subscribed) connections, \(disposed) disposals")
        }
        if overlaps.load(ordering: .relaxed) > 0 { problems.append("round \(round): events overlapped") }
      }
      return problems
    }
    #expect(problems.isEmpty, "\(problems.prefix(5))")
  }

  @Test("values, subjects and closures of a shared signal are released once subscribers and the signal are gone")
  func noLeak() {
    let counter = LifetimeCounter()
    do {
      let token = counter.make()
      let shared = Signal<LifetimeCounter.Token, Never> { observer in
        observer.send(token)
        return nil
      }.share(replay: 1)
      let late = shared.subscribe(next: { _ in })
      shared.subscribe(next: { _ in }).dispose()
      late.dispose()
    }
    #expect(counter.count == 0)
  }
}
