import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Testing

@Suite("handleEvents, materialize and dematerialize")
struct EventOperatorTests {
  @Test("handleEvents runs each side effect before the event goes on, and disposed only for the subscriber's dispose")
  func handleEvents() {
    let timeline = OperatorTimeline()
    let effects = Log<String>()
    let source = timeline.source([(1, .next(1)), (2, .finished)])
    let handled = source.handleEvents(
      next: { effects.append("next \($0) @\(timeline.scheduler.now.seconds)") },
      failed: { _ in effects.append("failed") }, finished: { effects.append("finished") },
      disposed: { effects.append("disposed") })
    #expect(timeline.run(handled) == ["next(1)@1", "finished@2"])
    #expect(effects.values == ["next 1 @1", "finished"])
    let cancelled = OperatorTimeline()
    let disposals = Log<String>()
    let subscription = cancelled.source([(1, .next(1))]).handleEvents(disposed: { disposals.append("disposed") })
      .subscribe { (_: SignalEvent<Int, TestError>) in }
    subscription.dispose()
    subscription.dispose()
    #expect(disposals.values == ["disposed"])
  }

  @Test("materialize sends events as values and finishes after the terminal one; dematerialize undoes it")
  func materialize() {
    let timeline = OperatorTimeline()
    let source = timeline.source([(1, .next(1)), (2, .failed(TestError()))])
    let event = "AsyncSignals.SignalEvent<Swift.Int, AsyncSignalsTests.TestError>"
    #expect(
      timeline.run(source.materialize())
        == ["next(\(event).next(1))@1", "next(\(event).failed(AsyncSignalsTests.TestError(code: 1)))@2", "finished@2"])
    let roundTrip = OperatorTimeline()
    let events: Signal<Int, TestError> = roundTrip.source([(1, .next(1)), (2, .failed(TestError()))]).materialize()
      .dematerialize()
    #expect(roundTrip.run(events) == ["next(1)@1", "failed(AsyncSignalsTests.TestError(code: 1))@2"])
  }
}
