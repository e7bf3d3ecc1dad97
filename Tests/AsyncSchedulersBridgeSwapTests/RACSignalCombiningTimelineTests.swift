import AsyncSchedulersBridge
import AsyncSchedulersBridgeTesting
import Testing

/// RAC's combining operators, each pinned on a virtual timeline: the sources send at given seconds on
/// a `RACTestScheduler`; the expected logs are computed by hand from ReactiveObjC's rules.
@Suite("RACSignal combining operators on virtual time")
@MainActor
struct RACSignalCombiningTimelineTests {
  @Test("combineLatest(with:) sends a tuple once both have a value, then at each value; it completes when both have")
  func combineLatestWith() {
    let timeline = RACTimeline()
    let numbers = timeline.signal([(1, 1), (3, 2)], .completed(at: 4))
    let letters = timeline.signal([(2, "x"), (5, "y")], .completed(at: 6))
    timeline.record(numbers.combineLatest(with: letters))
    #expect(
      timeline.run() == ["2 RACTuple(1, x)", "3 RACTuple(2, x)", "5 RACTuple(2, y)", "6 completed"])
  }

  @Test("combineLatest(with:) sends either signal's error on at once")
  func combineLatestError() {
    let timeline = RACTimeline()
    let numbers = timeline.signal([(1, 1), (3, 2)], .completed(at: 4))
    let letters = timeline.signal([(2, "x")], .failed(at: 2.5), named: "letters")
    timeline.record(numbers.combineLatest(with: letters))
    #expect(timeline.run() == ["2 RACTuple(1, x)", "2.5 error letters"])
  }

  @Test("+combineLatest: of an array sends the values in the array's order and completes when all have")
  func combineLatestArray() {
    let timeline = RACTimeline()
    let signals = [
      timeline.signal([(1, 1), (4, 4)], .completed(at: 5)),
      timeline.signal([(2, 2)], .completed(at: 2.5)),
      timeline.signal([(3, 3)], .completed(at: 6)),
    ]
    timeline.record(RACSignal<Int>.combineLatest(signals))
    #expect(timeline.run() == ["3 RACTuple(1, 2, 3)", "4 RACTuple(4, 2, 3)", "6 completed"])
  }

  @Test("zip(with:) pairs values by index and completes when a completed signal has no value left to pair")
  func zipWith() {
    let timeline = RACTimeline()
    let numbers = timeline.signal([(1, 1), (2, 2), (3, 3)], .completed(at: 3.5))
    let letters = timeline.signal([(4, "x"), (5, "y")], .completed(at: 7))
    timeline.record(numbers.zip(with: letters))
    // After 5 the numbers' 3 still waits for a partner, so only the letters' end ends the zip.
    #expect(timeline.run() == ["4 RACTuple(1, x)", "5 RACTuple(2, y)", "7 completed"])

    let early = RACTimeline()
    let one = early.signal([(1, 1)], .completed(at: 2))
    let many = early.signal([(3, "x"), (4, "y")], .completed(at: 5))
    early.record(one.zip(with: many))
    #expect(early.run() == ["3 RACTuple(1, x)", "3 completed"])
  }

  @Test("+zip: of an array sends one tuple per index, in the array's order")
  func zipArray() {
    let timeline = RACTimeline()
    let signals = [
      timeline.signal([(1, 1), (2, 11)], .never),
      timeline.signal([(1.5, 2), (2.5, 12)], .never),
      timeline.signal([(3, 3)], .completed(at: 3.2)),
    ]
    timeline.record(RACSignal<Int>.zip(signals))
    #expect(timeline.run() == ["3 RACTuple(1, 2, 3)", "3.2 completed"])
  }

  @Test("+merge: of an array sends every value as it comes and completes when all have")
  func mergeArray() {
    let timeline = RACTimeline()
    let signals = [
      timeline.signal([(1, 1), (3, 3)], .completed(at: 4)),
      timeline.signal([(2, 2)], .completed(at: 5)),
    ]
    timeline.record(RACSignal<Int>.merge(signals))
    #expect(timeline.run() == ["1 1", "2 2", "3 3", "5 completed"])
  }

  @Test("take(until:) completes when the trigger sends a value, or when it completes")
  func takeUntil() {
    let timeline = RACTimeline()
    let numbers = timeline.signal([(1, 1), (2, 2), (4, 4)], .completed(at: 5))
    timeline.record(numbers.take(until: timeline.signal([(3, "stop")], .never)), as: "value ")
    timeline.record(numbers.take(until: timeline.signal([(Double, String)](), .completed(at: 1.5))), as: "end ")
    #expect(
      timeline.run() == ["1 value 1", "1 end 1", "1.5 end completed", "2 value 2", "3 value completed"])
  }

  @Test("switchToLatest follows the newest inner signal and completes when the outer and the newest have")
  func switchToLatest() {
    let timeline = RACTimeline()
    let first = timeline.signal([(0.5, "a"), (2.5, "b")], .completed(at: 3))
    let second = timeline.signal([(1, "c")], .completed(at: 2))
    let outer = timeline.signal([(1, first), (3, second)], .completed(at: 4))
    timeline.record(outer.switchToLatest())
    // `first` is subscribed at 1 (a at 1.5; b at 3.5 is dropped: `second` took over at 3), `second` at 3.
    #expect(timeline.run() == ["1.5 a", "4 c", "5 completed"])
  }

  @Test("flatten merges every inner signal and completes when the outer and every inner have")
  func flatten() {
    let timeline = RACTimeline()
    let first = timeline.signal([(0.5, "a"), (2.5, "b")], .completed(at: 3))
    let second = timeline.signal([(1, "c")], .completed(at: 2))
    let outer = timeline.signal([(1, first), (3, second)], .completed(at: 4))
    timeline.record(outer.flatten())
    #expect(timeline.run() == ["1.5 a", "3.5 b", "4 c", "5 completed"])
  }

  @Test("sample resends the latest value at each tick of the sampler and completes with either signal")
  func sample() {
    let timeline = RACTimeline()
    let values = timeline.signal([(1, 1), (2, 2), (2.2, 3)], .completed(at: 10))
    let ticks = timeline.signal([(0.5, "t"), (1.5, "t"), (1.8, "t"), (3, "t")], .completed(at: 4))
    timeline.record(values.sample(ticks))
    #expect(timeline.run() == ["1.5 1", "1.8 1", "3 3", "4 completed"])
  }
}
