import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Dispatch
import Synchronization
import Testing

@testable import AsyncSchedulers

/// The "Bad input" article's table, fuzzed: every public API of the core, the test scheduler and the
/// signals that takes a duration, an instant, an interval, a leeway, a width, a count or a timeout is
/// called with every extreme value below. Each call either returns with the documented outcome
/// (checked: when it fires, or that it never does) or stops the program with the documented message
/// (checked in a child process), never a different trap, a hang or a silently wrong time. `.ci/run`
/// runs it in a release build too (its suite name contains "BadInput").
@Suite("Bad-input table, fuzzed (BadInput)")
struct BadInputFuzzTests {
  // MARK: One-shot timers

  @Test("one-shot timers on virtual time fire exactly at their deadline, as soon as possible, or never")
  func virtualOneShots() {
    for start in FuzzValues.startInstants {
      for deadline in FuzzValues.instants(around: start) {
        for leeway in FuzzValues.durations {
          let scheduler = TestScheduler(now: start)
          let fired = Log<SchedulerInstant>()
          let handle = scheduler.schedule(at: deadline, leeway: leeway) { fired.append(scheduler.now) }
          scheduler.execute(at: deadline, leeway: leeway) { fired.append(scheduler.now) }
          let context = "start \(start), deadline \(deadline), leeway \(leeway)"
          switch FuzzValues.outcome(of: deadline, now: start) {
          case .soon:
            scheduler.advance()
            #expect(fired.values == [start, start], "\(context)")
          case .at(let instant):
            scheduler.advance(to: instant)
            #expect(fired.values == [instant, instant], "\(context)")
          case .never:
            scheduler.advance(by: .seconds(1_000_000))
            scheduler.run()
            #expect(fired.values.isEmpty, "\(context)")
            #expect(scheduler.pendingCount == 2, "\(context)")
          }
          handle.dispose()
        }
      }
    }
  }

  @Test("one-shot delays on virtual time saturate instead of trapping")
  func virtualDelays() {
    for delay in FuzzValues.durations {
      let scheduler = TestScheduler(now: SchedulerInstant(offset: .seconds(1_700_000_000)))
      let start = scheduler.now
      let fired = Log<SchedulerInstant>()
      scheduler.schedule(after: delay) { fired.append(scheduler.now) }
      scheduler.execute(after: delay) { fired.append(scheduler.now) }
      let deadline = start.advanced(by: delay)
      switch FuzzValues.outcome(of: deadline, now: start) {
      case .soon:
        scheduler.advance()
        #expect(fired.values == [start, start], "delay \(delay)")
      case .at(let instant):
        scheduler.advance(to: instant)
        #expect(fired.values == [instant, instant], "delay \(delay)")
      case .never:
        scheduler.run()
        #expect(fired.values.isEmpty, "delay \(delay)")
      }
    }
  }

  @Test(
    "one-shot timers on real schedulers run when due (whatever the leeway), or never, and never block on a distant one",
    arguments: FuzzValues.realSchedulerNames)
  func realOneShots(schedulerName: String) async {
    let scheduler = FuzzValues.realScheduler(named: schedulerName)
    let inline = schedulerName == "immediate" || schedulerName == "trampoline"
    for leeway in FuzzValues.durations {
      let now = scheduler.now
      var cases: [(SchedulerInstant, expectFire: Bool)] = [
        (.distantPast, true), (SchedulerInstant(offset: .seconds(Int64.min)), true), (now, true),
        (now.advanced(by: FuzzValues.attosecond), true), (now.advanced(by: .milliseconds(5)), true),
        (.distantFuture, false), (SchedulerInstant(offset: .seconds(Int64.max)), false),
      ]
      // An inline scheduler blocks until a far deadline: that is its documented behaviour.
      if !inline { cases.append((now.advanced(by: .seconds(3600)), false)) }
      for (deadline, expectFire) in cases {
        let fired = Latch()
        let firedAt = Log<SchedulerInstant>()
        let started = ContinuousClock.now
        let handle = scheduler.schedule(at: deadline, leeway: leeway) {
          firedAt.append(scheduler.now)
          fired.signal()
        }
        let context = "\(schedulerName): deadline \(deadline), leeway \(leeway)"
        // A large leeway lets the engine hold the timer for a later wake-up (up to the leeway, capped at
        // about 71 minutes): no firing time to wait for here, only no early firing and no trap.
        if expectFire && leeway > .seconds(1) && deadline > now && !inline {
          #expect(firedAt.values.allSatisfy { $0 >= deadline }, "fired early: \(context)")
          handle.dispose()
          continue
        }
        if expectFire {
          #expect(await fired.wait(timeout: .seconds(30)), "\(context)")
          if let at = firedAt.values.first, deadline > now { #expect(at >= deadline, "fired early: \(context)") }
        } else {
          #expect(ContinuousClock.now - started < .seconds(5), "blocked: \(context)")
          #expect(!(await fired.wait(timeout: .milliseconds(20))), "\(context)")
          handle.dispose()
        }
      }
    }
  }

  // MARK: Repeating timers

  @Test("repeating timers on virtual time fire on their grid from any start, or never, with any valid interval")
  func virtualRepeating() {
    for start in [SchedulerInstant.distantPast, .zero, SchedulerInstant(offset: .seconds(5)), .distantFuture] {
      for interval in FuzzValues.durations where interval > .zero {
        for leeway in FuzzValues.durations where leeway >= .zero {
          let scheduler = TestScheduler()
          let fired = Log<SchedulerInstant>()
          let timer = scheduler.scheduleRepeating(startingAt: start, every: interval, leeway: leeway) {
            fired.append(scheduler.now)
          }
          // Three grid points at most, however small the interval: never a hang.
          let horizon = max(start, .zero).advanced(by: interval * 2)
          if horizon < .distantFuture { scheduler.advance(to: horizon) } else { scheduler.advance(by: .seconds(10)) }
          let context = "start \(start), interval \(interval), leeway \(leeway)"
          if start >= .distantFuture {
            #expect(fired.values.isEmpty, "\(context)")
          } else {
            // A start in the past fires once at once (missed points coalesced), then on the grid
            // start + interval × k: computed here on whole attoseconds, independently of the engine.
            var expected: [SchedulerInstant] = [max(start, .zero)]
            let step = FuzzValues.attoseconds(interval)
            let behind = FuzzValues.attoseconds(start.duration(to: expected[0]))
            var index = behind / step + 1
            while true {
              let (offset, overflow) = step.multipliedReportingOverflow(by: index)
              guard !overflow, offset < FuzzValues.attoseconds(start.duration(to: .distantFuture)) else { break }
              let point = start.advanced(by: FuzzValues.duration(attoseconds: offset))
              guard point <= scheduler.now else { break }
              expected.append(point)
              index += 1
            }
            #expect(fired.values == expected, "\(context)")
          }
          timer.dispose()
        }
      }
    }
  }

  @Test(
    "repeating timers and ticks on real schedulers take any valid interval and start without trapping",
    arguments: ["serial", "concurrent"])
  func realRepeating(schedulerName: String) async {
    let scheduler = FuzzValues.realScheduler(named: schedulerName)
    for interval in FuzzValues.durations where interval > .zero {
      for start in [SchedulerInstant.distantPast, scheduler.now, .distantFuture] {
        let stopper = StopAtFirstFire()
        let timer = scheduler.scheduleRepeating(startingAt: start, every: interval, leeway: .zero) { stopper.fire() }
        stopper.attach { timer.dispose() }
        let context = "\(schedulerName): start \(start), interval \(interval)"
        if start < .distantFuture {
          #expect(await stopper.fired.wait(timeout: .seconds(30)), "\(context)")
        } else {
          #expect(!(await stopper.fired.wait(timeout: .milliseconds(20))), "\(context)")
        }
        timer.dispose()
      }
    }
  }

  // MARK: Sleeps

  @Test("sleeps on every scheduler return at once, at their deadline, or last until cancelled")
  func sleeps() async throws {
    for name in FuzzValues.realSchedulerNames + ["virtual"] {
      for duration in FuzzValues.durations {
        let virtual = name == "virtual" ? TestScheduler() : nil
        let scheduler: any Scheduler = virtual ?? FuzzValues.realScheduler(named: name)
        let context = "\(name): sleep(for: \(duration))"
        // Each sleep runs on a scheduler thread of its own: an inline scheduler's sleep holds its thread.
        let host = SerialScheduler(name: "sleeper")
        let start = scheduler.now
        let sleeper = Task(executorPreference: virtual ?? host) {
          try await scheduler.sleep(for: duration)
          return scheduler.now
        }
        let deadline = start.advanced(by: duration)
        switch FuzzValues.outcome(of: deadline, now: start) {
        case .soon:
          virtual?.advance()
          let woke = try await sleeper.value
          #expect(virtual == nil || woke == start, "\(context)")
        case .at(let instant) where duration <= .milliseconds(5):
          virtual?.advance(to: instant)
          let woke = try await sleeper.value
          #expect(woke >= instant, "\(context)")
        case .at, .never:
          virtual?.advance(by: .seconds(1_000))
          try await Task.sleep(for: .milliseconds(5))
          sleeper.cancel()
          virtual?.advance()
          let clock = ContinuousClock.now
          await #expect(throws: CancellationError.self, "\(context)") { try await sleeper.value }
          #expect(ContinuousClock.now - clock < .seconds(30), "\(context)")
        }
      }
    }
  }

  // MARK: Test scheduler, recorder and signals

  @Test("the test scheduler's own extremes: clocks, advances, step counts, bounds and timeouts")
  func testSchedulerExtremes() {
    for now in FuzzValues.startInstants + [.distantFuture] {
      for stall in FuzzValues.durations {
        let scheduler = TestScheduler(now: now, maximumJobsPerInstant: .max, stallTimeout: stall)
        #expect(scheduler.now == now)
        #expect(scheduler.stallTimeout == max(stall, .zero))
        for count in [Int.min, -1, 0, 1, Int.max] {
          scheduler.step(count)
          scheduler.run(maximumSteps: count)
        }
        for timeout in [Duration.seconds(Int64.min), .zero] {
          #expect(IssueCapture.collecting { scheduler.runUntil(timeout: timeout) { false } }.count == 1)
        }
        #expect(scheduler.runUntil(timeout: .seconds(Int64.max)) { true })
        for duration in FuzzValues.durations {
          let before = scheduler.now
          if duration < .zero {
            #expect(IssueCapture.collecting { scheduler.advance(by: duration) }.count == 1)
            #expect(scheduler.now == before)
          } else {
            scheduler.advance(by: duration)
            #expect(scheduler.now == before.advanced(by: duration))
          }
        }
      }
    }
  }

  @Test("marble diagrams take any tick and any instant without trapping or growing per tick")
  func recorderTicks() {
    let events: [TestRecorder<Int>.Event] = FuzzValues.startInstants.enumerated().map {
      .value($0.offset, at: $0.element)
    }
    for tick in FuzzValues.durations {
      if tick <= .zero {
        #expect(IssueCapture.collecting { _ = TestRecorder<Int>.marbles(events, tick: tick) }.count == 1)
      } else {
        #expect(TestRecorder<Int>.marbles(events, tick: tick).count < 1_000, "tick \(tick)")
      }
    }
  }

  @Test("time operators take any valid interval: zero sends at once, huge never fires, the end still arrives")
  func signalIntervals() {
    for interval in FuzzValues.durations where interval >= .zero {
      let scheduler = TestScheduler()
      let subject = SignalSubject<Int, FuzzError>()
      let logs = (0..<5).map { _ in Log<String>() }
      typealias Event = SignalEvent<Int, FuzzError>
      let subscriptions: [any Disposable] = [
        subject.signal.delay(interval, on: scheduler).subscribe { (event: Event) in logs[0].append("\(event)") },
        subject.signal.debounce(for: interval, on: scheduler).subscribe { (event: Event) in logs[1].append("\(event)")
        },
        subject.signal.throttle(for: interval, on: scheduler).subscribe { (event: Event) in logs[2].append("\(event)")
        },
        subject.signal.collect(every: interval, on: scheduler).subscribe { (event: SignalEvent<[Int], FuzzError>) in
          logs[3].append("\(event)")
        },
        subject.signal.timeout(after: interval, on: scheduler, failingWith: FuzzError()).subscribe { (event: Event) in
          logs[4].append("\(event)")
        },
      ]
      subject.send(1)
      scheduler.advance(by: .seconds(1))
      subject.finish()
      scheduler.advance(by: .seconds(1_000))
      let context = "interval \(interval)"
      // Every operator ends (delay's end comes `interval` later: never, for a huge one; timeout may
      // fail first).
      for (index, log) in logs.enumerated() where index != 0 || interval <= .seconds(1_000) {
        let last = log.values.last ?? ""
        #expect(last.contains("finished") || last.contains("failed"), "operator \(index), \(context): \(log.values)")
      }
      if interval > .seconds(1_000) { #expect(logs[0].values.isEmpty, "delay \(context): \(logs[0].values)") }
      for subscription in subscriptions { subscription.dispose() }
    }
  }

  @Test("interval and timer signals take any valid period or delay, and a huge one never ticks")
  func signalTimers() {
    for duration in FuzzValues.durations where duration > .zero {
      let scheduler = TestScheduler()
      let ticks = Log<String>()
      let interval = Signal<SchedulerInstant, Never>.interval(duration, on: scheduler).subscribe {
        ticks.append("i\($0)")
      }
      let timer = Signal<Int, Never>.timer(after: duration, period: duration, on: scheduler).subscribe {
        ticks.append("t\($0)")
      }
      scheduler.advance(by: min(duration, .seconds(1)))
      #expect(ticks.values.isEmpty == (duration > .seconds(1)), "duration \(duration): \(ticks.values)")
      interval.dispose()
      timer.dispose()
    }
    for count in [0, 1, Int.max] {
      let values = Log<Int>()
      _ = Signal<Int, Never>(1...3, on: ImmediateScheduler.shared).take(count).skip(count == 1 ? 1 : 0)
        .subscribe(next: { values.append($0) })
      #expect(values.values == (count == 0 ? [] : count == 1 ? [] : [1, 2, 3]), "count \(count)")
    }
  }

  // MARK: Stops

  @Test(
    "each refused argument stops the program with the documented message naming the API and the value",
    .enabled(if: BadInputFuzz.runsStops, "set ASYNC_SCHEDULERS_FUZZ=1 (CI does, in its release-build run)"),
    arguments: FuzzStops.cases)
  func stops(_ stop: RefusedArgument) async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      [id = stop.id as String] in
      FuzzStops.perform(id)
    }
    let output = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(output.contains(stop.message), "\(stop.id): \(output.suffix(400))")
  }
}

struct FuzzError: Error {}

/// The extreme values the fuzz tests feed every API.
enum FuzzValues {
  static let attosecond = Duration(secondsComponent: 0, attosecondsComponent: 1)

  /// Durations: zero, negative (tiny and the most negative), a tenth of a nanosecond is not
  /// representable so one attosecond, one nanosecond, milliseconds, an hour, and the largest.
  static let durations: [Duration] = [
    .zero, .nanoseconds(-1), .seconds(-1), .seconds(Int64.min), attosecond, .nanoseconds(1), .milliseconds(5),
    .seconds(3_600), .seconds(Int64.max),
  ]

  /// Clock starts: zero, a wall-clock-sized offset, far in the past.
  static let startInstants: [SchedulerInstant] = [
    .zero, SchedulerInstant(offset: .seconds(1_700_000_000)), .distantPast, SchedulerInstant(offset: .seconds(-5)),
  ]

  /// Deadlines around `now`: both ends of the timeline and beyond them, the past, now, the next
  /// attosecond, a second on, just before the end.
  static func instants(around now: SchedulerInstant) -> [SchedulerInstant] {
    [
      .distantPast, SchedulerInstant(offset: .seconds(Int64.min)), .zero, now.advanced(by: .seconds(-1)), now,
      now.advanced(by: attosecond), now.advanced(by: .seconds(1)),
      SchedulerInstant.distantFuture.advanced(by: .nanoseconds(-1)), .distantFuture,
      SchedulerInstant(offset: .seconds(Int64.max)),
    ]
  }

  /// When a timer due at `deadline` fires on a scheduler whose clock reads `now`: the documented rows.
  enum Outcome: Equatable {
    case soon
    case at(SchedulerInstant)
    case never
  }

  /// `duration` in whole attoseconds.
  static func attoseconds(_ duration: Duration) -> Int128 {
    let (seconds, attoseconds) = duration.components
    return Int128(seconds) * 1_000_000_000_000_000_000 + Int128(attoseconds)
  }

  /// A duration of `attoseconds` (which must fit).
  static func duration(attoseconds: Int128) -> Duration {
    let (seconds, remainder) = attoseconds.quotientAndRemainder(dividingBy: 1_000_000_000_000_000_000)
    return Duration(secondsComponent: Int64(seconds), attosecondsComponent: Int64(remainder))
  }

  static func outcome(of deadline: SchedulerInstant, now: SchedulerInstant) -> Outcome {
    if deadline >= .distantFuture { return .never }
    if deadline <= now { return .soon }
    return .at(deadline)
  }

  static let realSchedulerNames = ["serial", "concurrent", "immediate", "trampoline"]

  static func realScheduler(named name: String) -> any Scheduler {
    switch name {
    case "serial": SerialScheduler(name: "fuzz.serial")
    case "concurrent": ConcurrentScheduler(name: "fuzz.concurrent", maxConcurrentJobs: 2)
    case "immediate": ImmediateScheduler.shared
    default: TrampolineScheduler(name: "fuzz.trampoline")
    }
  }
}

/// The refused arguments of the core, the test scheduler and the signals, with their messages.
enum FuzzStops {
  static let negativeDurations: [Duration] = FuzzValues.durations.filter { $0 < .zero }
  static let nonPositiveDurations: [Duration] = FuzzValues.durations.filter { $0 <= .zero }

  /// Every case, each with the call that makes it.
  static let table: RefusedArguments = {
    var table = RefusedArguments()
    func add(_ id: String, _ message: String, _ call: @escaping @Sendable () -> Void) {
      table.add(id, message, call)
    }
    for interval in nonPositiveDurations {
      let message = "scheduleRepeating: interval must be greater than zero (got \(interval))"
      add("serial.scheduleRepeating interval \(interval)", message) {
        _ = SerialScheduler(name: "bad").scheduleRepeating(every: interval) {}
      }
      add("concurrent.scheduleRepeating interval \(interval)", message) {
        _ = ConcurrentScheduler(name: "bad", maxConcurrentJobs: 2).scheduleRepeating(every: interval) {}
      }
      add("test.scheduleRepeating interval \(interval)", message) {
        _ = TestScheduler().scheduleRepeating(every: interval) {}
      }
      add("ticks interval \(interval)", message) { _ = SerialScheduler(name: "bad").ticks(every: interval) }
      add("Signal.interval \(interval)", "Signal.interval: interval must be greater than zero (got \(interval))") {
        _ = Signal<SchedulerInstant, Never>.interval(interval, on: TestScheduler())
      }
      add("Signal.timer period \(interval)", "Signal.timer: period must be greater than zero (got \(interval))") {
        _ = Signal<Int, Never>.timer(after: .zero, period: interval, on: TestScheduler())
      }
    }
    for leeway in negativeDurations {
      let message = "scheduleRepeating: leeway must not be negative (got \(leeway))"
      add("serial.scheduleRepeating leeway \(leeway)", message) {
        _ = SerialScheduler(name: "bad").scheduleRepeating(every: .seconds(1), leeway: leeway) {}
      }
      add("test.scheduleRepeating leeway \(leeway)", message) {
        _ = TestScheduler().scheduleRepeating(every: .seconds(1), leeway: leeway) {}
      }
      add("ticks leeway \(leeway)", message) {
        _ = SerialScheduler(name: "bad").ticks(every: .seconds(1), leeway: leeway)
      }
      add("Signal.interval leeway \(leeway)", "Signal.interval: leeway must not be negative (got \(leeway))") {
        _ = Signal<SchedulerInstant, Never>.interval(.seconds(1), on: TestScheduler(), leeway: leeway)
      }
      let signal = Signal<Int, FuzzError>.never()
      let scheduler = ImmediateScheduler.shared
      add("Signal.delay \(leeway)", "Signal.delay: interval must not be negative (got \(leeway))") {
        _ = signal.delay(leeway, on: scheduler)
      }
      add("Signal.debounce \(leeway)", "Signal.debounce: interval must not be negative (got \(leeway))") {
        _ = signal.debounce(for: leeway, on: scheduler)
      }
      add("Signal.throttle \(leeway)", "Signal.throttle: interval must not be negative (got \(leeway))") {
        _ = signal.throttle(for: leeway, on: scheduler)
      }
      add(
        "Signal.collect(every:) \(leeway)", "Signal.collect(every:): interval must not be negative (got \(leeway))"
      ) {
        _ = signal.collect(every: leeway, on: scheduler)
      }
      add("Signal.timeout \(leeway)", "Signal.timeout: interval must not be negative (got \(leeway))") {
        _ = signal.timeout(after: leeway, on: scheduler, failingWith: FuzzError())
      }
      add("Signal.timer delay \(leeway)", "Signal.timer: delay must not be negative (got \(leeway))") {
        _ = Signal<Int, Never>.timer(after: leeway, on: TestScheduler())
      }
    }
    for count in [Int.min, -1] {
      add("Signal.take \(count)", "Signal.take: count must not be negative (got \(count))") {
        _ = Signal<Int, Never>.never().take(count)
      }
      add("Signal.skip \(count)", "Signal.skip: count must not be negative (got \(count))") {
        _ = Signal<Int, Never>.never().skip(count)
      }
      add("Signal.share \(count)", "Signal.share(replay:): replay must not be negative (got \(count))") {
        _ = Signal<Int, Never>.never().share(replay: count)
      }
    }
    for width in [Int.min, -1, 0] {
      add(
        "ConcurrentScheduler width \(width)",
        "ConcurrentScheduler: maxConcurrentJobs must be at least 1 (got \(width))"
      ) {
        _ = ConcurrentScheduler(name: "bad", maxConcurrentJobs: width)
      }
      add("TestScheduler bound \(width)", "maximumJobsPerInstant must be at least 1 (got \(width))") {
        _ = TestScheduler(maximumJobsPerInstant: width)
      }
      add("values(buffering:) newest \(width)", "the buffer size must be at least 1 (got \(width))") {
        _ = Signal<Int, Never>.never().values(buffering: .bufferingNewest(width))
      }
      add("values(buffering:) oldest \(width)", "the buffer size must be at least 1 (got \(width))") {
        _ = Signal<Int, Never>.never().values(buffering: .bufferingOldest(width))
      }
    }
    for name in ["ImmediateScheduler", "TrampolineScheduler"] {
      add(
        "\(name).scheduleRepeating", "\(name).scheduleRepeating: cannot run repeating work, the call would never return"
      ) {
        let scheduler: any Scheduler =
          name == "ImmediateScheduler" ? ImmediateScheduler.shared : TrampolineScheduler.shared
        _ = scheduler.scheduleRepeating(every: .seconds(1)) {}
      }
    }
    return table
  }()

  static var cases: [RefusedArgument] { table.cases }

  /// Makes the call of case `id` (in the exit test's child process).
  static func perform(_ id: String) { table.perform(id) }
}
