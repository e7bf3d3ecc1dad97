import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Testing

@Suite("Signal operators")
struct SignalOperatorTests {
  let scheduler = TestScheduler()

  func values<Element: Sendable, Failure: Error>(_ signal: Signal<Element, Failure>) -> [String] {
    let timeline = Timeline(signal, on: scheduler)
    scheduler.run()
    return timeline.events
  }

  @Test("map, filter, compactMap, scan, skip and distinctUntilChanged transform values and pass the end through")
  func transforms() {
    let source = Signal<Int, Never>([1, 1, 2, 3, 3, 4], on: scheduler)
    #expect(values(source.map { $0 * 10 }) == ["10@0", "10@0", "20@0", "30@0", "30@0", "40@0", "|@0"])
    #expect(values(source.filter { $0 % 2 == 0 }) == ["2@0", "4@0", "|@0"])
    #expect(values(source.compactMap { $0 > 2 ? "v\($0)" : nil }) == ["v3@0", "v3@0", "v4@0", "|@0"])
    #expect(values(source.scan(0, +)) == ["1@0", "2@0", "4@0", "7@0", "10@0", "14@0", "|@0"])
    #expect(values(source.skip(4)) == ["3@0", "4@0", "|@0"])
    #expect(values(source.distinctUntilChanged()) == ["1@0", "2@0", "3@0", "4@0", "|@0"])
  }

  @Test("take(n) finishes after n values and disposes the upstream subscription")
  func take() {
    let disposed = Log<Int>()
    let source = Signal<Int, Never> { observer in
      for value in 1...10 where !observer.isTerminated { observer.send(value) }
      return AnyDisposable { disposed.append(1) }
    }
    #expect(values(source.take(2)) == ["1@0", "2@0", "|@0"])
    #expect(values(source.take(0)) == ["|@0"])
    #expect(disposed.values == [1])
  }

  @Test("take(n) of an endless synchronous source ends it while its subscribe closure still runs")
  func takeOfEndlessSynchronousSource() {
    let sent = Log<Int>()
    let endless = Signal<Int, Never> { observer in
      var value = 0
      while !observer.isTerminated {
        value += 1
        sent.append(value)
        observer.send(value)
      }
      return nil
    }
    #expect(values(endless.map { $0 * 10 }.take(2)) == ["10@0", "20@0", "|@0"])
    #expect(sent.values == [1, 2])
  }

  @Test("flatMap merges inner signals as they come and finishes when all have finished")
  func flatMap() {
    let source = timed([(0, .next(1)), (10, .next(2)), (20, .finished)], on: scheduler) as Signal<Int, Never>
    let merged = source.flatMap { value in
      timed([(5, .next(value * 10)), (30, .next(value * 100)), (40, .finished)], on: self.scheduler)
        as Signal<Int, Never>
    }
    #expect(values(merged) == ["10@5", "20@15", "100@30", "200@40", "|@50"])
  }

  @Test("flatMap to just values sends each at once and ends with the source, as subscribing to them would")
  func flatMapToJust() {
    let source = timed([(0, .next(1)), (10, .next(2)), (20, .finished)], on: scheduler) as Signal<Int, Never>
    #expect(values(source.flatMap { .just($0 * 10) }) == ["10@0", "20@10", "|@20"])
    // A `just` mixed with an inner signal that ends later: the merge still waits for that one (this run
    // starts where the first ended, at 20).
    let merged = source.flatMap { value in
      value == 1
        ? timed([(30, .next(0)), (40, .finished)], on: self.scheduler) as Signal<Int, Never> : .just(value * 10)
    }
    #expect(values(merged) == ["20@30", "0@50", "|@60"])
  }

  @Test("a failing inner signal fails the flatMap and disposes the others")
  func flatMapFailure() {
    let disposed = Log<Int>()
    let source = Signal<Int, TestError>.just(1).concat(.just(2))
    let merged = source.flatMap { value -> Signal<Int, TestError> in
      if value == 2 { return .fail(TestError(code: 2)) }
      return Signal { _ in AnyDisposable { disposed.append(value) } }
    }
    #expect(values(merged) == ["#TestError(code: 2)@0"])
    #expect(disposed.values == [1])
  }

  @Test("after an inner signal fails, flatMap transforms no later value, even from a synchronous source")
  func flatMapStopsTransformingAfterFailure() {
    let transformed = Log<Int>()
    let source = Signal<Int, TestError> { observer in
      for value in 1...3 { observer.send(value) }
      observer.finish()
      return nil
    }
    let merged = source.flatMap { value -> Signal<Int, TestError> in
      transformed.append(value)
      return .fail(TestError(code: value))
    }
    #expect(values(merged) == ["#TestError(code: 1)@0"])
    #expect(transformed.values == [1])
  }

  @Test("concat sends the second signal after the first finishes; merge interleaves them")
  func concatAndMerge() {
    let first = timed([(10, .next("a")), (20, .finished)], on: scheduler) as Signal<String, Never>
    let second = timed([(5, .next("b")), (6, .finished)], on: scheduler) as Signal<String, Never>
    #expect(values(first.concat(second)) == ["a@10", "b@25", "|@26"])
    // Subscribed at 26 ms, once the concatenation has run.
    #expect(values(first.merge(with: second)) == ["b@31", "a@36", "|@46"])
  }

  @Test("take(until:) finishes when the trigger sends a value")
  func takeUntil() {
    let source = timed([(0, .next(1)), (10, .next(2)), (30, .next(3))], on: scheduler) as Signal<Int, Never>
    let trigger = timed([(20, .next(()))], on: scheduler) as Signal<Void, Never>
    #expect(values(source.take(until: trigger)) == ["1@0", "2@10", "|@20"])
  }

  @Test("an AsyncSequence on a scheduler is iterated in a task that prefers it")
  func asyncSequence() {
    let stream = AsyncStream<Int> { continuation in
      continuation.yield(1)
      continuation.yield(2)
      continuation.finish()
    }
    let onScheduler = Log<Bool>()
    let signal = Signal<Int, Never>(stream, on: scheduler).map { value -> Int in
      onScheduler.append(Schedulers.current === self.scheduler)
      return value
    }
    #expect(values(signal) == ["1@0", "2@0", "|@0"])
    #expect(onScheduler.values == [true, true])
  }
}

@Suite("Subjects")
struct SubjectTests {
  @Test("a subject multicasts to its current subscribers, and late subscribers get the end")
  func subject() {
    let scheduler = TestScheduler()
    let subject = SignalSubject<Int, Never>()
    let early = Timeline(subject.signal, on: scheduler)
    subject.send(1)
    let late = Timeline(subject.signal, on: scheduler)
    subject.send(2)
    subject.finish()
    subject.send(3)
    let after = Timeline(subject.signal, on: scheduler)
    #expect(early.events == ["1@0", "2@0", "|@0"])
    #expect(late.events == ["2@0", "|@0"])
    #expect(after.events == ["|@0"])
  }

  @Test("a replay subject replays its last values to new subscribers, then the live ones")
  func replay() {
    let scheduler = TestScheduler()
    let subject = ReplaySignalSubject<Int, Never>(capacity: 2)
    for value in 1...3 { subject.send(value) }
    let timeline = Timeline(subject.signal, on: scheduler)
    subject.send(4)
    #expect(timeline.events == ["2@0", "3@0", "4@0"])
  }

  @Test("a current-value subject gives its value first and keeps the latest")
  func currentValue() {
    let scheduler = TestScheduler()
    let subject = CurrentValueSignalSubject<String, Never>("initial")
    let first = Timeline(subject.signal, on: scheduler)
    subject.send("next")
    let second = Timeline(subject.signal, on: scheduler)
    #expect(subject.value == "next")
    #expect(first.events == ["initial@0", "next@0"])
    #expect(second.events == ["next@0"])
  }

  @Test("a disposed subscriber of a subject receives nothing more")
  func unsubscribe() {
    let scheduler = TestScheduler()
    let subject = SignalSubject<Int, Never>()
    let timeline = Timeline(subject.signal, on: scheduler)
    subject.send(1)
    timeline.dispose()
    subject.send(2)
    #expect(timeline.events == ["1@0"])
  }
}
