import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Testing

@Suite("prepend, first, prefix(while:), drop(while:), ignoreValues, then")
struct SequencingOperatorTests {
  let values: [(Double, SignalEvent<Int, TestError>)] = [(1, .next(1)), (2, .next(2)), (3, .next(3)), (4, .finished)]

  @Test("prepend sends its values at subscription, then the signal's")
  func prepend() {
    let timeline = OperatorTimeline()
    #expect(
      timeline.run(timeline.source(values).prepend(8, 9))
        == ["next(8)@0", "next(9)@0", "next(1)@1", "next(2)@2", "next(3)@3", "finished@4"])
    #expect(timeline.disposals.values == [1])
  }

  @Test("first sends the first value and finishes at once, disposing the source; first(where:) the first match")
  func first() {
    let timeline = OperatorTimeline()
    #expect(timeline.run(timeline.source(values).first()) == ["next(1)@1", "finished@1"])
    #expect(timeline.disposals.values == [1])
    let matching = OperatorTimeline()
    #expect(matching.run(matching.source(values).first { $0 > 1 }) == ["next(2)@2", "finished@2"])
    let empty = OperatorTimeline()
    #expect(
      empty.run(empty.source([(1, .failed(TestError()))]).first()) == ["failed(AsyncSignalsTests.TestError(code: 1))@1"]
    )
  }

  @Test("prefix(while:) finishes at the first value failing the predicate; drop(while:) starts there")
  func prefixAndDrop() {
    let prefix = OperatorTimeline()
    #expect(prefix.run(prefix.source(values).prefix { $0 < 3 }) == ["next(1)@1", "next(2)@2", "finished@3"])
    #expect(prefix.disposals.values == [1])
    let drop = OperatorTimeline()
    let again: [(Double, SignalEvent<Int, TestError>)] = values.dropLast() + [(3.5, .next(1)), (4, .finished)]
    #expect(drop.run(drop.source(again).drop { $0 < 2 }) == ["next(2)@2", "next(3)@3", "next(1)@3.5", "finished@4"])
  }

  @Test("ignoreValues sends only the end; then subscribes to the next signal once this one finishes")
  func ignoreValuesAndThen() {
    let ignoring = OperatorTimeline()
    #expect(ignoring.run(ignoring.source(values).ignoreValues()) == ["finished@4"])
    let then = OperatorTimeline()
    let next = then.source([(1, .next(10)), (2, .finished)])
    #expect(then.run(then.source(values).then(next)) == ["next(10)@5", "finished@6"])
    #expect(then.disposals.values == [1, 1])
    let failing = OperatorTimeline()
    let failed = failing.run(failing.source([(1, .failed(TestError()))]).then(failing.source([(1, .next(10))])))
    #expect(failed == ["failed(AsyncSignalsTests.TestError(code: 1))@1"])
  }
}
