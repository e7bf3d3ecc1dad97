import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Testing

@Suite("sample(on:) and withLatestFrom")
struct SampleAndWithLatestFromTests {
  @Test("sample sends the newest value at each tick, each value at most once")
  func sample() {
    let timeline = OperatorTimeline()
    let values = timeline.source([(1, .next(1)), (2, .next(2)), (4, .next(3)), (9, .finished)])
    let ticks = timeline.source([(3, .next(0)), (5, .next(0)), (6, .next(0)), (10, .next(0))])
    #expect(timeline.run(values.sample(on: ticks)) == ["next(2)@3", "next(3)@5", "finished@9"])
    #expect(timeline.disposals.values == [1, 1])
  }

  @Test("sample holds the last value of a finished signal until the next tick, then finishes")
  func sampleFinishesAtTheNextTick() {
    let timeline = OperatorTimeline()
    let values = timeline.source([(1, .next(1)), (2, .finished)])
    let ticks = timeline.source([(4, .next(0)), (6, .next(0))])
    #expect(timeline.run(values.sample(on: ticks)) == ["next(1)@4", "finished@4"])
  }

  @Test("sample sends the waiting value and finishes when the trigger finishes")
  func sampleTriggerFinishes() {
    let timeline = OperatorTimeline()
    let values = timeline.source([(1, .next(1)), (5, .next(2))])
    let ticks = timeline.source([(2, .finished)])
    #expect(timeline.run(values.sample(on: ticks)) == ["next(1)@2", "finished@2"])
    #expect(timeline.disposals.values == [1, 1])
  }

  @Test("sample fails with either signal and disposes both")
  func sampleFails() {
    let timeline = OperatorTimeline()
    let values = timeline.source([(1, .next(1))])
    let ticks = timeline.source([(2, .failed(TestError()))])
    #expect(timeline.run(values.sample(on: ticks)) == ["failed(AsyncSignalsTests.TestError(code: 1))@2"])
    #expect(timeline.disposals.values == [1, 1])
  }

  @Test("sample resending the latest sends it at every tick and finishes with either signal (RAC's rule)")
  func sampleResendingLatest() {
    let timeline = OperatorTimeline()
    let values = timeline.source([(2, .next(1)), (4, .next(2)), (7, .finished)])
    let ticks = timeline.source([(1, .next(0)), (3, .next(0)), (5, .next(0)), (6, .next(0)), (8, .next(0))])
    #expect(
      timeline.run(values.sample(on: ticks, resendingLatest: true))
        == ["next(1)@3", "next(2)@5", "next(2)@6", "finished@7"])
    let triggerEnds = OperatorTimeline()
    let more = triggerEnds.source([(1, .next(1))])
    #expect(
      triggerEnds.run(more.sample(on: triggerEnds.source([(2, .finished)]), resendingLatest: true)) == ["finished@2"])
  }

  @Test("withLatestFrom pairs each value with the other's latest; values before the other's first are dropped")
  func withLatestFrom() {
    let timeline = OperatorTimeline()
    let values = timeline.source([(1, .next(1)), (3, .next(2)), (5, .next(3)), (7, .next(4)), (8, .finished)])
    let other = timeline.source([(2, .next(10)), (4, .next(20)), (6, .finished)])
    #expect(
      timeline.run(values.withLatestFrom(other).map { "\($0)-\($1)" })
        == ["next(\"2-10\")@3", "next(\"3-20\")@5", "next(\"4-20\")@7", "finished@8"])
    #expect(timeline.disposals.values == [1, 1])
  }

  @Test("withLatestFrom subscribes to the other first, so its synchronous value is in place")
  func withLatestFromSynchronousOther() {
    let log = Log<String>()
    _ = Signal<Int, Never>.just(1).withLatestFrom(Signal<String, Never>.just("a")).subscribe {
      (event: SignalEvent<(Int, String), Never>) in
      switch event {
      case .next(let (number, letter)): log.append("\(number)\(letter)")
      case .finished: log.append("finished")
      }
    }
    #expect(log.values == ["1a", "finished"])
  }

  @Test("withLatestFrom fails when the other fails")
  func withLatestFromFails() {
    let timeline = OperatorTimeline()
    let values = timeline.source([(1, .next(1)), (3, .next(2))])
    let other = timeline.source([(2, .failed(TestError()))])
    #expect(
      timeline.run(values.withLatestFrom(other).map { "\($0)-\($1)" })
        == ["failed(AsyncSignalsTests.TestError(code: 1))@2"])
  }
}
