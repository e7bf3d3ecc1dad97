import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTestSupport
import Dispatch
import Foundation
import Testing

/// The Rx bridge's rows of the "Bad input" article's table, fuzzed: every Rx API taking a due time, a
/// period, a date or an interval is called with every extreme value below. Each call returns with the
/// documented outcome or stops with the documented message (in a child process); `.ci/run` also runs
/// it in a release build.
@Suite("Rx bad-input table, fuzzed (BadInput)")
struct RxBadInputFuzzTests {
  /// Extreme Rx intervals, with the seconds each stands for (`nil`: `.never`).
  static let intervals: [(RxTimeInterval, seconds: Double?)] = [
    (.seconds(Int.min), -Double(Int.max)), (.nanoseconds(Int.min), -9.2e9), (.seconds(-1), -1), (.nanoseconds(0), 0),
    (.nanoseconds(1), 1e-9), (.milliseconds(5), 0.005), (.seconds(3_600), 3_600), (.microseconds(Int.max), 9.2e12),
    (.milliseconds(Int.max), 9.2e15), (.seconds(Int.max), Double(Int.max)), (.never, nil),
  ]

  @Test(
    "scheduleRelative on virtual time: due times in the past run at once, others at exactly now + due, .never never")
  func virtualRelative() {
    let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 0))
    let fired = Log()
    for (index, (interval, _)) in Self.intervals.enumerated() {
      _ = scheduler.scheduleRelative(index, dueTime: interval) { index in
        fired("\(index)@\(scheduler.seconds)")
        return Disposables.create()
      }
    }
    scheduler.advanceTo(Date(timeIntervalSince1970: 10_000))
    let expected = Self.intervals.enumerated().compactMap { index, entry -> (Double, Int)? in
      guard let seconds = entry.seconds, seconds <= 10_000 else { return nil }
      return (max(seconds, 0), index)
    }.sorted { $0 < $1 }.map { seconds, index in
      // Virtual time is a `Date`, as in RxSwift: the due time is what `Date` arithmetic makes of it (a
      // nanosecond after 1970 is below a `Date`'s resolution there).
      "\(index)@\(Date(timeIntervalSince1970: 0).addingTimeInterval(seconds).timeIntervalSince1970)"
    }
    #expect(fired.values == expected)
    // Running everything reaches even the farthest due times, in order; .never stays unrun.
    scheduler.start()
    #expect(fired.values.count == Self.intervals.count - 1)
    #expect(!fired.values.contains { $0.hasPrefix("\(Self.intervals.count - 1)@") })
  }

  @Test("schedulePeriodic on virtual time takes any start and period: first tick at the start, then on the grid")
  func virtualPeriodic() {
    for (start, startSeconds) in Self.intervals {
      for (period, periodSeconds) in Self.intervals where (periodSeconds ?? 1) > 0 {
        let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 0))
        let ticks = Log()
        let periodic = scheduler.schedulePeriodic(0, startAfter: start, period: period) { count in
          ticks("\(scheduler.seconds)")
          return count + 1
        }
        // Up to two and a half periods after the start (at most 10,000 s): a few ticks, whatever the
        // period (a nanosecond period over 10,000 s would be 10^13 ticks).
        let horizon = min(10_000, max(startSeconds ?? 0, 0) + 2.5 * (periodSeconds ?? 1))
        scheduler.advanceTo(Date(timeIntervalSince1970: horizon))
        periodic.dispose()
        let context = "start \(start), period \(period): \(ticks.values)"
        guard let startSeconds else {
          #expect(ticks.values.isEmpty, "\(context)")
          continue
        }
        let first = max(startSeconds, 0)
        if first > horizon {
          #expect(ticks.values.isEmpty, "\(context)")
        } else {
          let epoch = Date(timeIntervalSince1970: 0)
          #expect(ticks.values.first == "\(epoch.addingTimeInterval(first).timeIntervalSince1970)", "\(context)")
          if let periodSeconds, periodSeconds >= 1, first + periodSeconds <= horizon {
            let second = epoch.addingTimeInterval(first + periodSeconds).timeIntervalSince1970
            #expect(ticks.values.dropFirst().first == "\(second)", "\(context)")
          }
        }
      }
    }
  }

  @Test("scheduleRelative and schedulePeriodic on real schedulers: soon for the past, never for .never or huge")
  func realSchedulers() async {
    let schedulers: [(String, any SchedulerType)] = [
      ("serial", SerialDispatchQueueScheduler(internalSerialQueueName: "fuzz.rx.serial")),
      ("concurrent", ConcurrentDispatchQueueScheduler(queue: DispatchQueue(label: "fuzz.rx", attributes: .concurrent))),
    ]
    for (name, scheduler) in schedulers {
      for (interval, seconds) in Self.intervals {
        let fired = Latch()
        let relative = scheduler.scheduleRelative((), dueTime: interval) { _ in
          fired.signal()
          return Disposables.create()
        }
        let context = "\(name): \(interval)"
        if let seconds, seconds <= 0.005 {
          #expect(await fired.wait(timeout: .seconds(30)), "\(context)")
        } else {
          #expect(!(await fired.wait(timeout: .milliseconds(20))), "\(context)")
        }
        relative.dispose()
        if (seconds ?? 1) > 0 {
          let stopper = StopAtFirstFire()
          let periodic = scheduler.schedulePeriodic((), startAfter: .nanoseconds(0), period: interval) { _ in
            stopper.fire()
          }
          stopper.attach { periodic.dispose() }
          #expect(await stopper.fired.wait(timeout: .seconds(30)), "periodic \(context)")
          periodic.dispose()
        }
      }
    }
  }

  @Test(
    "each refused Rx argument stops the program with a message naming it and the value",
    .enabled(if: BadInputFuzz.runsStops, "set ASYNC_SCHEDULERS_FUZZ=1 (CI does, in its release-build run)"),
    arguments: RxFuzzStops.cases)
  func stops(_ stop: RefusedArgument) async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      [id = stop.id as String] in
      RxFuzzStops.perform(id)
    }
    let output = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(output.contains(stop.message), "\(stop.id): \(output.suffix(400))")
  }
}

/// The refused arguments of the Rx bridge, with their messages.
enum RxFuzzStops {
  static let table: RefusedArguments = {
    var table = RefusedArguments()
    func add(_ id: String, _ message: String, _ call: @escaping @Sendable () -> Void) {
      table.add(id, message, call)
    }
    for period in [RxTimeInterval.nanoseconds(0), .seconds(-1), .seconds(Int.min)] {
      let message = "schedulePeriodic: period must be positive or .never (got \(period))"
      add("serial periodic \(period)", message) {
        _ = SerialDispatchQueueScheduler(internalSerialQueueName: "bad").schedulePeriodic(
          (), startAfter: .seconds(0), period: period
        ) { _ in }
      }
      add("historical periodic \(period)", message) {
        _ = HistoricalScheduler().schedulePeriodic((), startAfter: .seconds(0), period: period) { _ in }
      }
    }
    let nan = Date(timeIntervalSinceReferenceDate: .nan)
    add("historical advanceTo NaN", "HistoricalScheduler: not a valid date (NaN)") {
      HistoricalScheduler().advanceTo(nan)
    }
    add("historical sleep NaN", "HistoricalScheduler: not a valid date (NaN)") { HistoricalScheduler().sleep(.nan) }
    add("historical scheduleAbsoluteVirtual NaN", "HistoricalScheduler: not a valid date (NaN)") {
      let scheduler = HistoricalScheduler()
      _ = scheduler.scheduleAbsoluteVirtual((), time: nan) { _ in Disposables.create() }
      scheduler.start()
    }
    add("historical advanceTo the past", "VirtualTimeScheduler.advanceTo: cannot move back in time") {
      HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 10)).advanceTo(.distantPast)
    }
    add("historical sleep negative", "VirtualTimeScheduler.sleep: cannot move back in time") {
      HistoricalScheduler().sleep(-.infinity)
    }
    let rx = SerialDispatchQueueScheduler(internalSerialQueueName: "bad")
    for count in [0, -1, Int.min] {
      add("buffer count \(count)", "Observable.buffer: count must be positive (got \(count))") {
        _ = Observable<Int>.never().buffer(timeSpan: .seconds(1), count: count, scheduler: rx)
      }
      add("window count \(count)", "Observable.window: count must be positive (got \(count))") {
        _ = Observable<Int>.never().window(timeSpan: .seconds(1), count: count, scheduler: rx)
      }
    }
    add("buffer timeSpan never", "Observable.buffer: timeSpan must not be .never (got never)") {
      _ = Observable<Int>.never().buffer(timeSpan: .never, count: 1, scheduler: rx)
    }
    add("window timeSpan never", "Observable.window: timeSpan must not be .never (got never)") {
      _ = Observable<Int>.never().window(timeSpan: .never, count: 1, scheduler: rx)
    }
    return table
  }()

  static var cases: [RefusedArgument] { table.cases }

  /// Makes the call of case `id` (in the exit test's child process).
  static func perform(_ id: String) { table.perform(id) }
}
