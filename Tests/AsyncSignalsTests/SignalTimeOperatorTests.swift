import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Testing

/// Every time operator's timeline, pinned on virtual time: input events at given milliseconds, output
/// events with the virtual time they were delivered at.
@Suite("Signal time operators")
struct SignalTimeOperatorTests {
  @Test("observe(on:) delivers every event, in order, when the target scheduler runs")
  func observeOn() {
    let source = TestScheduler(name: "source")
    let target = TestScheduler(name: "target")
    let signal = timed([(10, .next(1)), (10, .next(2)), (20, .finished)], on: source) as Signal<Int, Never>
    let timeline = Timeline(signal.observe(on: target), on: source)
    source.advance(by: .milliseconds(30))
    #expect(timeline.events.isEmpty)
    target.advance()
    #expect(timeline.events == ["1@30", "2@30", "|@30"])
  }

  @Test("subscribe(on:) subscribes, and disposes, on the scheduler")
  func subscribeOn() {
    let scheduler = TestScheduler()
    let log = Log<String>()
    let signal = Signal<Int, Never> { observer in
      log.append("subscribed on scheduler: \(Schedulers.current === scheduler)")
      observer.send(1)
      return AnyDisposable { log.append("disposed on scheduler: \(Schedulers.current === scheduler)") }
    }
    let timeline = Timeline(signal.subscribe(on: scheduler), on: scheduler)
    #expect(log.values.isEmpty)
    scheduler.advance()
    timeline.dispose()
    scheduler.advance()
    #expect(log.values == ["subscribed on scheduler: true", "disposed on scheduler: true"])
    #expect(timeline.events == ["1@0"])
  }

  @Test("delay shifts values and the end, not a failure")
  func delay() {
    let scheduler = TestScheduler()
    let finishing = timed([(0, .next(1)), (50, .next(2)), (60, .finished)], on: scheduler) as Signal<Int, TestError>
    let failing = timed([(0, .next(1)), (50, .failed(TestError()))], on: scheduler) as Signal<Int, TestError>
    let first = Timeline(finishing.delay(.milliseconds(100), on: scheduler), on: scheduler)
    let second = Timeline(failing.delay(.milliseconds(100), on: scheduler), on: scheduler)
    scheduler.run()
    #expect(first.events == ["1@100", "2@150", "|@160"])
    #expect(second.events == ["#TestError(code: 1)@50"])
  }

  @Test("debounce sends the newest value after a quiet interval, and a pending value at the end")
  func debounce() {
    let scheduler = TestScheduler()
    let signal =
      timed([(0, .next(1)), (50, .next(2)), (250, .next(3)), (300, .finished)], on: scheduler) as Signal<Int, Never>
    let timeline = Timeline(signal.debounce(for: .milliseconds(100), on: scheduler), on: scheduler)
    scheduler.run()
    #expect(timeline.events == ["2@150", "3@300", "|@300"])
  }

  @Test("debounce: a value arriving exactly when the pending one falls due comes after it")
  func debounceAtTheDeadline() {
    let scheduler = TestScheduler()
    let signal = timed([(0, .next(1)), (100, .next(2))], on: scheduler) as Signal<Int, Never>
    let timeline = Timeline(signal.debounce(for: .milliseconds(100), on: scheduler), on: scheduler)
    scheduler.advance(by: .milliseconds(500))
    #expect(timeline.events == ["1@100", "2@200"])
  }

  @Test("debounce with valuesPassingTest sends other values at once and drops the pending one, as RAC")
  func debouncePassingTest() {
    let scheduler = TestScheduler()
    let signal = timed([(0, .next(1)), (20, .next(10)), (30, .next(2))], on: scheduler) as Signal<Int, Never>
    let timeline = Timeline(
      signal.debounce(for: .milliseconds(100), on: scheduler, valuesPassingTest: { $0 < 10 }), on: scheduler)
    scheduler.advance(by: .milliseconds(500))
    #expect(timeline.events == ["10@20", "2@130"])
  }

  @Test("throttle sends the first value at once and the latest of each window at its end")
  func throttleLatest() {
    let scheduler = TestScheduler()
    let signal =
      timed(
        [(0, .next(1)), (10, .next(2)), (20, .next(3)), (150, .next(4)), (300, .next(5)), (310, .finished)],
        on: scheduler)
      as Signal<Int, Never>
    let latest = Timeline(signal.throttle(for: .milliseconds(100), on: scheduler), on: scheduler)
    let leading = Timeline(signal.throttle(for: .milliseconds(100), on: scheduler, latest: false), on: scheduler)
    scheduler.run()
    #expect(latest.events == ["1@0", "3@100", "4@200", "5@300", "|@310"])
    #expect(leading.events == ["1@0", "4@150", "5@300", "|@310"])
  }

  @Test("throttle sends a value arriving exactly when its window's interval is up, before the window's timer runs")
  func throttleWindowBoundary() {
    let scheduler = TestScheduler()
    // The value at 100 ms is queued before the window's timer (due at 100 ms too).
    let signal =
      timed([(0, .next(1)), (100, .next(2)), (150, .next(3)), (250, .finished)], on: scheduler)
      as Signal<Int, Never>
    let leading = Timeline(signal.throttle(for: .milliseconds(100), on: scheduler, latest: false), on: scheduler)
    scheduler.run()
    #expect(leading.events == ["1@0", "2@100", "|@250"])
  }

  @Test("collect(every:) sends each batch an interval after its first value, and the last at the end")
  func collect() {
    let scheduler = TestScheduler()
    let signal =
      timed([(0, .next(1)), (40, .next(2)), (150, .next(3)), (180, .finished)], on: scheduler) as Signal<Int, Never>
    let timeline = Timeline(signal.collect(every: .milliseconds(100), on: scheduler), on: scheduler)
    scheduler.run()
    #expect(timeline.events == ["[1, 2]@100", "[3]@180", "|@180"])
  }

  @Test("timeout fails with the given error when the signal does not end in time, and disposes it")
  func timeout() {
    let scheduler = TestScheduler()
    let disposed = Log<Int>()
    let slow = Signal<Int, TestError> { observer in
      let job = scheduler.schedule(after: .milliseconds(500)) { observer.finish() }
      return AnyDisposable {
        job.dispose()
        disposed.append(1)
      }
    }
    let fast = timed([(50, .next(1)), (60, .finished)], on: scheduler) as Signal<Int, TestError>
    let late = Timeline(
      slow.timeout(after: .milliseconds(100), on: scheduler, failingWith: TestError(code: 9)), on: scheduler)
    let inTime = Timeline(
      fast.timeout(after: .milliseconds(100), on: scheduler, failingWith: TestError(code: 9)), on: scheduler)
    scheduler.run()
    #expect(late.events == ["#TestError(code: 9)@100"])
    #expect(disposed.values == [1])
    #expect(inTime.events == ["1@50", "|@60"])
  }

  @Test("interval ticks on its grid, anchored to the subscription, until disposed")
  func interval() {
    let scheduler = TestScheduler()
    let timeline = Timeline(
      Signal<SchedulerInstant, Never>.interval(.milliseconds(100), on: scheduler).map(\.ms), on: scheduler)
    scheduler.advance(by: .milliseconds(350))
    timeline.dispose()
    scheduler.advance(by: .seconds(1))
    #expect(timeline.events == ["100@100", "200@200", "300@300"])
    #expect(scheduler.pendingCount == 0)
  }

  @Test("timer sends 0 after its delay, then counts every period; without a period it finishes")
  func timer() {
    let scheduler = TestScheduler()
    let once = Timeline(Signal<Int, Never>.timer(after: .milliseconds(50), on: scheduler), on: scheduler)
    let periodic = Timeline(
      Signal<Int, Never>.timer(after: .milliseconds(50), period: .milliseconds(20), on: scheduler), on: scheduler)
    scheduler.advance(by: .milliseconds(100))
    periodic.dispose()
    #expect(once.events == ["0@50", "|@50"])
    #expect(periodic.events == ["0@50", "1@70", "2@90"])
  }

  @Test("a sequence on a scheduler sends one element per job, and disposing stops it")
  func sequenceOnScheduler() {
    let scheduler = TestScheduler()
    let all = Timeline(Signal<Int, Never>(1...3, on: scheduler), on: scheduler)
    let log = Log<Int>()
    let stopped = Signal<Int, Never>(1...1_000_000, on: scheduler).subscribe(next: { log.append($0) })
    scheduler.step()
    scheduler.step()
    stopped.dispose()
    scheduler.run()
    #expect(all.events == ["1@0", "2@0", "3@0", "|@0"])
    #expect(log.values.count <= 2)
  }

  @Test("startLazily runs its block once, at the first subscription, and replays to everyone")
  func startLazily() {
    let scheduler = TestScheduler()
    let runs = Log<Int>()
    let signal = Signal<Int, Never>.startLazily(on: scheduler) { observer in
      runs.append(1)
      observer.send(1)
      observer.send(2)
      observer.finish()
    }
    scheduler.run()
    #expect(runs.values.isEmpty)
    let first = Timeline(signal, on: scheduler)
    scheduler.run()
    let second = Timeline(signal, on: scheduler)
    #expect(runs.values == [1])
    #expect(first.events == ["1@0", "2@0", "|@0"])
    #expect(second.events == ["1@0", "2@0", "|@0"])
    let eager = Signal<Int, Never>.startEagerly(on: scheduler) { observer in
      runs.append(2)
      observer.finish()
    }
    scheduler.run()
    #expect(runs.values == [1, 2])
    _ = eager
  }
}
