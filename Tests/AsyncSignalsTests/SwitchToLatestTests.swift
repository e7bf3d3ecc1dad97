import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Testing

@Suite("switchToLatest")
struct SwitchToLatestTests {
  @Test("only the latest inner signal's events pass; the previous one is disposed; the end waits for both")
  func switchesToTheLatest() {
    let timeline = OperatorTimeline()
    // Inner signals, relative to their subscription: one value a second, then the end after 10 s.
    let first = timeline.source([(1, .next(1)), (2, .next(2)), (3, .next(3)), (10, .finished)])
    let second = timeline.source([(1, .next(10)), (2, .next(20)), (3, .finished)])
    let outer = Signal<Signal<Int, TestError>, TestError> { observer in
      let timers = CompositeDisposable()
      timers.add(timeline.scheduler.schedule(after: .seconds(0)) { observer.send(first) })
      timers.add(timeline.scheduler.schedule(after: .milliseconds(2_500)) { observer.send(second) })
      timers.add(timeline.scheduler.schedule(after: .seconds(4)) { observer.finish() })
      return timers
    }
    #expect(
      timeline.run(outer.switchToLatest())
        == ["next(1)@1", "next(2)@2", "next(10)@3.5", "next(20)@4.5", "finished@5.5"])
    // The first inner signal was disposed at the switch, the second when it finished.
    #expect(timeline.disposals.values == [1, 1])
  }

  @Test("a failure of the current inner signal fails it; a switched-away one's cannot")
  func failures() {
    let timeline = OperatorTimeline()
    let stale = timeline.source([(5, .failed(TestError(code: 1)))])
    let current = timeline.source([(2, .failed(TestError(code: 2)))])
    let outer = Signal<Signal<Int, TestError>, TestError> { observer in
      let timers = CompositeDisposable()
      timers.add(timeline.scheduler.schedule(after: .seconds(0)) { observer.send(stale) })
      timers.add(timeline.scheduler.schedule(after: .seconds(1)) { observer.send(current) })
      return timers
    }
    #expect(timeline.run(outer.switchToLatest()) == ["failed(AsyncSignalsTests.TestError(code: 2))@3"])
  }

  @Test("a just inner signal sends its value at the switch and ends; the switch ends with the outer signal")
  func justInners() {
    let timeline = OperatorTimeline()
    let slow = timeline.source([(1, .next(2)), (3, .next(3)), (10, .finished)])
    let outer = Signal<Signal<Int, TestError>, TestError> { observer in
      let timers = CompositeDisposable()
      timers.add(timeline.scheduler.schedule(after: .seconds(0)) { observer.send(.just(1)) })
      timers.add(timeline.scheduler.schedule(after: .seconds(1)) { observer.send(slow) })
      timers.add(timeline.scheduler.schedule(after: .milliseconds(3_500)) { observer.send(.just(4)) })
      timers.add(timeline.scheduler.schedule(after: .seconds(6)) { observer.finish() })
      return timers
    }
    #expect(timeline.run(outer.switchToLatest()) == ["next(1)@0", "next(2)@2", "next(4)@3.5", "finished@6"])
    #expect(timeline.disposals.values == [1])
  }

  @Test("when the outer signal finishes after just inner signals, the switch ends at once")
  func outerEndAfterJustInners() {
    let subject = SignalSubject<Signal<Int, Never>, Never>()
    let log = Log<String>()
    let subscription = subject.signal.switchToLatest().subscribe { (event: SignalEvent<Int, Never>) in
      log.append("\(event)")
    }
    subject.send(.just(1))
    subject.send(.just(2))
    subject.finish()
    #expect(log.values == ["next(1)", "next(2)", "finished"])
    subscription.dispose()
  }

  @Test("a subscriber disposing on a just inner signal's value gets nothing after it")
  func disposingOnAJustValue() {
    let subject = SignalSubject<Signal<Int, Never>, Never>()
    let log = Log<String>()
    let subscription = Locked<(any Disposable)?>(nil)
    let handle = subject.signal.switchToLatest().subscribe { (event: SignalEvent<Int, Never>) in
      log.append("\(event)")
      subscription.withCriticalRegion { $0 }?.dispose()
    }
    subscription.withCriticalRegion { $0 = handle }
    subject.send(.just(1))
    subject.send(.just(2))
    #expect(log.values == ["next(1)"])
  }
}
