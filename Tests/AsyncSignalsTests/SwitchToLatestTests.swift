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
}
