import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Testing

@Suite("reduce and collect()")
struct AggregatingOperatorTests {
  @Test("reduce sends the accumulated result when the signal finishes; a failure sends nothing else")
  func reduce() {
    let timeline = OperatorTimeline()
    let source = timeline.source([(1, .next(1)), (2, .next(2)), (3, .finished)])
    #expect(timeline.run(source.reduce(10) { $0 + $1 }) == ["next(13)@3", "finished@3"])
    let failing = OperatorTimeline()
    let failed = failing.source([(1, .next(1)), (2, .failed(TestError()))])
    #expect(failing.run(failed.reduce(0, +)) == ["failed(AsyncSignalsTests.TestError(code: 1))@2"])
  }

  @Test("collect() sends every value as one array at the end, an empty one when there were none")
  func collect() {
    let timeline = OperatorTimeline()
    let source = timeline.source([(1, .next(1)), (2, .next(2)), (3, .finished)])
    #expect(timeline.run(source.collect()) == ["next([1, 2])@3", "finished@3"])
    let empty = OperatorTimeline()
    #expect(empty.run(empty.source([(1, .finished)]).collect()) == ["next([])@1", "finished@1"])
  }
}
