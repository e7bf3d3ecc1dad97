import AsyncSchedulers
import AsyncSchedulersTesting
import Testing

@Suite("Test doubles")
struct TestDoublesTests {
  @Test("the immediate test scheduler runs everything at once and jumps now to each deadline")
  func immediate() async throws {
    let scheduler = ImmediateTestScheduler()
    let trace = Trace()
    scheduler.schedule(after: .seconds(5)) { trace("at \(scheduler.now.ms)") }
    try await scheduler.sleep(for: .seconds(2))
    trace("slept to \(scheduler.now.ms)")
    scheduler.schedule(at: .zero) { trace("past runs at \(scheduler.now.ms)") }
    let timer = scheduler.scheduleRepeating(every: .seconds(1)) { trace("repeat once at \(scheduler.now.ms)") }
    #expect(timer.isDisposed)
    #expect(trace.values == ["at 5000", "slept to 7000", "past runs at 7000", "repeat once at 8000"])
  }

  @Test("the unimplemented scheduler fails the test naming the member that was used")
  func unimplemented() async {
    let scheduler = UnimplementedScheduler("api.clock")
    withKnownIssue {
      scheduler.schedule {}
    } matching: { issue in
      issue.comments.contains { $0.rawValue == "Unimplemented: api.clock.schedule(_:) was called." }
    }
    await withKnownIssue {
      await #expect(throws: CancellationError.self) { try await scheduler.sleep(for: .seconds(1)) }
    } matching: { issue in
      // sleep(for:) reads `now` and then sleeps until a deadline: both uses are reported.
      issue.comments.contains {
        $0.rawValue.contains("sleep(until:tolerance:)") || $0.rawValue.contains(".now was called")
      }
    }
  }

  @Test("the recorder stores values with their virtual times")
  func recorder() {
    let scheduler = TestScheduler()
    let recorder = TestRecorder<String>(scheduler: scheduler)
    scheduler.schedule(after: .seconds(1)) { recorder.record("a") }
    scheduler.schedule(after: .seconds(3)) {
      recorder.record("b")
      recorder.record("c")
    }
    scheduler.schedule(after: .seconds(4)) { recorder.finish() }
    scheduler.run()
    #expect(
      recorder.expect([
        .value("a", at: SchedulerInstant(offset: .seconds(1))),
        .value("b", at: SchedulerInstant(offset: .seconds(3))),
        .value("c", at: SchedulerInstant(offset: .seconds(3))),
        .finished(at: SchedulerInstant(offset: .seconds(4))),
      ]))
    #expect(recorder.timeline() == "-a-(b,c)|")
  }

  @Test("a failed recorder expectation prints both timelines as marbles")
  func recorderFailure() {
    let scheduler = TestScheduler()
    let recorder = TestRecorder<String>(scheduler: scheduler)
    scheduler.schedule(after: .seconds(2)) { recorder.record("x") }
    scheduler.run()
    withKnownIssue {
      recorder.expect([.value("x", at: SchedulerInstant(offset: .seconds(1)))])
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("expected: -x") && $0.rawValue.contains("actual:   --x") }
    }
  }

  @Test("marbles stay short far from zero and at distantFuture, and a zero tick fails the test instead of trapping")
  func marblesOnExtremeTimes() {
    let scheduler = TestScheduler(now: SchedulerInstant(offset: .seconds(1_700_000_000)))
    let recorder = TestRecorder<String>(scheduler: scheduler)
    recorder.record("a")
    scheduler.advance(by: .seconds(2))
    recorder.record("b")
    #expect(recorder.timeline() == "~1700000000~a-b")
    let far: [TestRecorder<String>.Event] = [
      .value("x", at: .zero), .finished(at: .distantFuture), .value("p", at: .distantPast),
    ]
    let diagram = TestRecorder<String>.marbles(far, tick: .seconds(1))
    #expect(diagram.hasPrefix("p~") && diagram.contains("~x~") && diagram.hasSuffix("~|"))
    #expect(diagram.count < 64)
    #expect(TestRecorder<String>.marbles([], tick: .seconds(1)) == "")
    withKnownIssue {
      #expect(
        TestRecorder<String>.marbles([.value("x", at: SchedulerInstant(offset: .seconds(2)))], tick: .zero) == "--x")
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("tick must be greater than zero (got 0.0 seconds)") }
    }
    // A failing expectation on such a timeline reports it, quickly, instead of allocating a cell per tick.
    withKnownIssue {
      recorder.expect([.value("a", at: .zero)])
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("actual:   ~1700000000~a-b") }
    }
  }
}
