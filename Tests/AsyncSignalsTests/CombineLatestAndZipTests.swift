import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Testing

@Suite("combineLatest and zip")
struct CombineLatestAndZipTests {
  @Test("combineLatest sends the latest pair once both have a value, and finishes when both have")
  func combineLatest() {
    let timeline = OperatorTimeline()
    let letters = timeline.source([(1, .next(1)), (3, .next(2)), (6, .finished)])
    let numbers = timeline.source([(2, .next(10)), (4, .next(20)), (5, .finished)])
    #expect(
      timeline.run(letters.combineLatest(numbers).map { "\($0)-\($1)" })
        == ["next(\"1-10\")@2", "next(\"2-10\")@3", "next(\"2-20\")@4", "finished@6"])
    #expect(timeline.disposals.values == [1, 1])
  }

  @Test("combineLatest finishes at once when a signal finishes without a value, and fails with either")
  func combineLatestEnds() {
    let early = OperatorTimeline()
    let empty = early.source([(1, .finished)])
    #expect(early.run(empty.combineLatest(early.source([(2, .next(1))])).map { "\($0)-\($1)" }) == ["finished@1"])
    let failing = OperatorTimeline()
    let failed = failing.source([(2, .failed(TestError()))])
    #expect(
      failing.run(failing.source([(1, .next(1))]).combineLatest(failed).map { "\($0)-\($1)" })
        == ["failed(AsyncSignalsTests.TestError(code: 1))@2"])
  }

  @Test("zip pairs values by index and finishes once no more pairs can be made")
  func zip() {
    let timeline = OperatorTimeline()
    let first = timeline.source([(1, .next(1)), (2, .next(2)), (3, .next(3)), (4, .finished)])
    let second = timeline.source([(5, .next(10)), (6, .next(20)), (7, .finished)])
    #expect(
      timeline.run(first.zip(second).map { "\($0)-\($1)" })
        == ["next(\"1-10\")@5", "next(\"2-20\")@6", "finished@7"])
    let short = OperatorTimeline()
    let one = short.source([(1, .next(1)), (2, .finished)])
    let many = short.source([(3, .next(10)), (4, .next(20))])
    #expect(short.run(one.zip(many).map { "\($0)-\($1)" }) == ["next(\"1-10\")@3", "finished@3"])
  }
}
