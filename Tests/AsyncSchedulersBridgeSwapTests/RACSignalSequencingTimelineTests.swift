import AsyncSchedulersBridge
import AsyncSchedulersBridgeTesting
import Testing

/// RAC's sequencing, error, multicasting and timed operators, each pinned on a virtual timeline (see
/// ``RACTimeline``); the expected logs are computed by hand from ReactiveObjC's rules.
@Suite("RACSignal sequencing operators on virtual time")
@MainActor
struct RACSignalSequencingTimelineTests {
  @Test("distinctUntilChanged, scanWithStart, startWith, skip and takeWhile keep each value's time")
  func valueOperators() {
    let timeline = RACTimeline()
    let numbers = timeline.signal([(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)], .completed(at: 6))
    timeline.record(numbers.distinctUntilChanged(), as: "distinct ")
    timeline.record(numbers.scan(withStart: 0) { ($0 ?? 0) + ($1 ?? 0) }, as: "sum ")
    timeline.record(numbers.startWith(0).skip(2).takeWhileBlock { ($0 ?? 0) < 3 }, as: "window ")
    #expect(
      timeline.run() == [
        "1 distinct 1", "1 sum 1",
        "2 sum 2", "2 window 1",
        "3 distinct 2", "3 sum 4", "3 window 2",
        "4 sum 6", "4 window 2",
        "5 distinct 3", "5 sum 9", "5 window completed",
        "6 distinct completed", "6 sum completed",
      ])
  }

  @Test("concat subscribes the next signal when the first completes and completes with it, also after return")
  func concat() {
    let timeline = RACTimeline()
    let first = timeline.signal([(1, 1)], .completed(at: 2))
    let second = timeline.signal([(1, 2)], .completed(at: 1.5))
    timeline.record(first.concat(second), as: "timed ")
    timeline.record(RACSignal<Int>.return(0).concat(second), as: "return ")
    #expect(
      timeline.run() == [
        "0 return 0", "1 timed 1", "1 return 2", "1.5 return completed", "3 timed 2", "3.5 timed completed",
      ])
  }

  @Test("aggregateWithStart and collect send once, at completion; ignoreValues then subscribes the next signal then")
  func aggregatingOperators() {
    let timeline = RACTimeline()
    let numbers = timeline.signal([(1, 1), (2, 2), (3, 3)], .completed(at: 4))
    timeline.record(numbers.aggregate(withStart: 0) { ($0 ?? 0) + ($1 ?? 0) }, as: "total ")
    timeline.record(numbers.collect(), as: "all ") { "\(($0 ?? []).map { $0 ?? -1 })" }
    let next = timeline.signal([(1, "next")], .completed(at: 2))
    timeline.record(numbers.ignoreValues().then { next }, as: "then ")
    #expect(
      timeline.run() == [
        "4 total 6", "4 total completed", "4 all [1, 2, 3]", "4 all completed", "5 then next", "6 then completed",
      ])
  }

  @Test("doNext, doError and doCompleted run their blocks when the events pass, before the subscriber's")
  func sideEffects() {
    let timeline = RACTimeline()
    let log = timeline.log
    let failing = timeline.signal([(1, 1)], .failed(at: 2), named: "boom")
    let completing = timeline.signal([(1, 1)], .completed(at: 2))
    let effects = { (signal: RACSignal<Int>) in
      signal.doNext { _ in log.append("\(timeline.now) doNext") }
        .doError { _ in log.append("\(timeline.now) doError") }
        .doCompleted { log.append("\(timeline.now) doCompleted") }
    }
    timeline.record(effects(failing), as: "failing ")
    timeline.record(effects(completing), as: "completing ")
    #expect(
      timeline.run() == [
        "1 doNext", "1 failing 1", "1 doNext", "1 completing 1",
        "2 doError", "2 failing error boom", "2 doCompleted", "2 completing completed",
      ])
  }

  @Test("catch and catchTo subscribe the replacement when the error arrives; retry resubscribes up to n times")
  func recovering() {
    let timeline = RACTimeline()
    let failing = timeline.signal([(1, 1)], .failed(at: 2), named: "boom")
    let replacement = timeline.signal([(1, 9)], .completed(at: 1.5))
    timeline.record(failing.catch { _ in replacement }, as: "catch ")
    timeline.record(failing.catch(to: replacement), as: "catchTo ")
    timeline.record(failing.retry(1), as: "retry ")
    #expect(
      timeline.run() == [
        "1 catch 1", "1 catchTo 1", "1 retry 1",
        "3 catch 9", "3 catchTo 9", "3 retry 1",
        "3.5 catch completed", "3.5 catchTo completed",
        "4 retry error boom",
      ])
  }

  @Test("materialize sends each event as a value at its time; dematerialize turns them back")
  func materialize() {
    let timeline = RACTimeline()
    let failing = timeline.signal([(1, 1)], .failed(at: 2), named: "boom")
    timeline.record(failing.materialize(), as: "event ")
    timeline.record(failing.materialize().dematerialize(), as: "round trip ")
    #expect(
      timeline.run() == [
        "1 event next(1)", "1 round trip 1", "2 event error(boom)", "2 event completed", "2 round trip error boom",
      ])
  }

  @Test("replayLast subscribes at once and gives a late subscriber the last value; replayLazily waits for the first")
  func multicasting() {
    let timeline = RACTimeline()
    let subscriptions = Lines()
    let source = timeline.signal([(1, 1), (2, 2)], .completed(at: 3))
    let numbers = RACSignal<Int>.createSignal { subscriber in
      subscriptions.append(timeline.now)
      return source.subscribe(subscriber)
    }
    let last = numbers.replayLast()
    let lazy = numbers.replayLazily()
    timeline.at(2.5) { timeline.record(last, as: "late ") }
    timeline.at(4) { timeline.record(last, as: "after ") }
    timeline.at(1) { timeline.record(lazy, as: "lazy ") }
    timeline.at(3.5) { timeline.record(lazy, as: "lazy again ") }
    #expect(
      timeline.run() == [
        "2 lazy 1",
        "2.5 late 2",
        "3 late completed", "3 lazy 2",
        "3.5 lazy again 1", "3.5 lazy again 2",
        "4 after 2", "4 after completed", "4 lazy completed", "4 lazy again completed",
      ])
    #expect(subscriptions.values == ["0", "1"])
  }

  @Test("delay moves values and completion by the interval on the current RACTestScheduler; errors pass at once")
  func delay() {
    let timeline = RACTimeline()
    timeline.record(timeline.signal([(1, 1), (2, 2)], .completed(at: 2.5)).delay(1), as: "delayed ")
    timeline.record(timeline.signal([(1, 1)], .failed(at: 1.5), named: "boom").delay(1), as: "failing ")
    #expect(
      timeline.run() == ["1.5 failing error boom", "2 delayed 1", "3 delayed 2", "3.5 delayed completed"])
  }

  @Test("throttle sends a value after a quiet interval on the current RACTestScheduler; completion flushes it")
  func throttle() {
    let timeline = RACTimeline()
    timeline.record(timeline.signal([(1, 1), (1.5, 2), (3, 3)], .completed(at: 5)).throttle(1), as: "quiet ")
    timeline.record(timeline.signal([(1, 1)], .completed(at: 1.5)).throttle(1), as: "flushed ")
    timeline.record(
      timeline.signal([(1, 1), (1.2, -1)], .never).throttle(1) { ($0 ?? 0) > 0 }, as: "test ")
    #expect(
      timeline.run() == [
        "1.2 test -1", "1.5 flushed 1", "1.5 flushed completed", "2.5 quiet 2", "4 quiet 3", "5 quiet completed",
      ])
  }
}
