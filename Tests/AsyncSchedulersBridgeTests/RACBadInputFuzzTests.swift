import AsyncSchedulers
import AsyncSchedulersBridge
import AsyncSchedulersBridgeTesting
import AsyncSchedulersTestSupport
import Foundation
import Testing

/// The RAC bridge's rows of the "Bad input" article's table, fuzzed: every RAC API taking seconds or a
/// date is called with every extreme value below. Each call returns with the documented outcome or
/// stops with the documented message (in a child process); `.ci/run` also runs it in a release build.
@Suite("RAC bad-input table, fuzzed (BadInput)")
struct RACBadInputFuzzTests {
  /// Extreme seconds: NaN is left to the stops below.
  static let seconds: [TimeInterval] = [
    -.infinity, -1e300, -Double(Int64.max), -1, -1e-19, 0, 1e-19, 1e-9, 0.001, 3_600, 9_223_372_036, 1e15, 2e15,
    Double(Int64.max), 1e300, .infinity,
  ]

  @Test("afterDelay on a RACTestScheduler: stepping runs every block once, in the order of the delays")
  func virtualDelays() {
    let scheduler = RACTestScheduler()
    let order = Log<Int>()
    for (index, delay) in Self.seconds.enumerated() {
      scheduler.afterDelay(delay) { order.append(index) }
    }
    scheduler.stepAll()
    // Stepping runs blocks in date order, past dates included (RACTestScheduler sorts by date), with
    // every delay beyond ±10^15 seconds (infinities included) clamped there; equal dates in scheduling
    // order.
    let expected = Self.seconds.enumerated().sorted { a, b in
      let (da, db) = (Self.effective(a.element), Self.effective(b.element))
      return da != db ? da < db : a.offset < b.offset
    }.map(\.offset)
    #expect(order.values == expected)
  }

  @Test("after(date) on a RACTestScheduler: distant and infinite dates are reached by stepping, in date order")
  func virtualDates() {
    let scheduler = RACTestScheduler()
    let order = Log<String>()
    let dates: [(String, Date)] = [
      ("distantFuture", .distantFuture), ("+inf", Date(timeIntervalSinceReferenceDate: .infinity)),
      ("distantPast", .distantPast), ("-inf", Date(timeIntervalSinceReferenceDate: -.infinity)),
      ("now", Date()), ("+1e300", Date(timeIntervalSinceReferenceDate: 1e300)),
    ]
    for (name, date) in dates { scheduler.after(date) { order.append(name) } }
    scheduler.stepAll()
    // -infinity is clamped to 10^15 seconds back, which is before distantPast (6.3·10^10 seconds back).
    #expect(order.values == ["-inf", "distantPast", "now", "distantFuture", "+inf", "+1e300"])
  }

  @Test("afterDelay on a real RACScheduler: soon for zero or less, never (pending until disposed) for huge")
  func realDelays() async {
    let scheduler = RACScheduler()
    for delay in Self.seconds {
      let fired = Latch()
      let start = Date()
      let disposable = scheduler.afterDelay(delay) { fired.signal() }
      if delay <= 0.001 {
        #expect(await fired.wait(timeout: .seconds(30)), "delay \(delay)")
        #expect(Date().timeIntervalSince(start) >= max(delay, 0) - 0.0005, "delay \(delay) fired early")
      } else {
        #expect(!(await fired.wait(timeout: .milliseconds(20))), "delay \(delay)")
        disposable?.dispose()
      }
    }
  }

  @Test("repeating blocks take any interval and leeway RAC accepts, rounding below a nanosecond up")
  func repeatingExtremes() async {
    let virtual = RACTestScheduler()
    let real = RACScheduler()
    for interval in [1e-19, 1e-9, 0.001, 9_223_372_035] {
      for leeway in [0, 1e-19, 0.5, 9_223_372_035] {
        let ticks = Log<Int>()
        let repeating = virtual.after(Date(), repeatingEvery: interval, withLeeway: leeway) { ticks.append(1) }
        virtual.step(3)
        #expect(ticks.values.count == 3, "interval \(interval), leeway \(leeway)")
        repeating?.dispose()
        let stopper = StopAtFirstFire()
        let live = real.after(Date(), repeatingEvery: interval, withLeeway: leeway) { stopper.fire() }
        stopper.attach { live?.dispose() }
        #expect(await stopper.fired.wait(timeout: .seconds(30)), "interval \(interval), leeway \(leeway)")
        live?.dispose()
      }
    }
  }

  @Test(
    "each refused RAC argument stops the program with RAC's message naming it and the value",
    .enabled(if: BadInputFuzz.runsStops, "set ASYNC_SCHEDULERS_FUZZ=1 (CI does, in its release-build run)"),
    arguments: RACFuzzStops.cases)
  func stops(_ stop: RefusedArgument) async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      [id = stop.id as String] in
      RACFuzzStops.perform(id)
    }
    let output = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(output.contains(stop.message), "\(stop.id): \(output.suffix(400))")
  }

  /// Where a delay lands on the virtual timeline: clamped at ±10^15 seconds.
  static func effective(_ delay: TimeInterval) -> TimeInterval { min(max(delay, -1e15), 1e15) }
}

/// The refused arguments of the RAC bridge, with their messages.
enum RACFuzzStops {
  static let table: RefusedArguments = {
    var table = RefusedArguments()
    func add(_ id: String, _ message: String, _ call: @escaping @Sendable () -> Void) {
      table.add(id, message, call)
    }
    add("afterDelay nan", "afterDelay:schedule: delay must not be NaN (got nan)") {
      _ = RACScheduler().afterDelay(.nan) {}
    }
    add("after NaN date", "after: the date is not a valid date (NaN)") {
      _ = RACScheduler().after(Date(timeIntervalSinceReferenceDate: .nan)) {}
    }
    add("after NaN date, virtual", "after: the date is not a valid date (NaN)") {
      _ = RACTestScheduler().after(Date(timeIntervalSinceReferenceDate: .nan)) {}
    }
    for interval in [0, -1, -.infinity, .nan, .infinity, 1e300, 9_223_372_037] as [TimeInterval] {
      add(
        "repeating interval \(interval)",
        "after:repeatingEvery:withLeeway:schedule: interval must be greater than 0 and less than 9223372036 seconds (got \(interval))"
      ) {
        _ = RACScheduler().after(Date(), repeatingEvery: interval, withLeeway: 0) {}
      }
    }
    for leeway in [-1, -1e-19, .nan, .infinity, 1e300] as [TimeInterval] {
      add(
        "repeating leeway \(leeway)",
        "after:repeatingEvery:withLeeway:schedule: leeway must be at least 0 and less than 9223372036 seconds (got \(leeway))"
      ) {
        _ = RACScheduler().after(Date(), repeatingEvery: 1, withLeeway: leeway) {}
      }
    }
    for seconds in [-1, -.infinity, .nan, .infinity] as [TimeInterval] {
      let signal = RACSignal<Int>.never()
      add("delay: \(seconds)", "delay: interval must be finite and not negative (got \(seconds))") {
        _ = signal.delay(seconds)
      }
      add("throttle: \(seconds)", "throttle: interval must be finite and not negative (got \(seconds))") {
        _ = signal.throttle(seconds)
      }
      add("bufferWithTime: \(seconds)", "bufferWithTime: interval must be finite and not negative (got \(seconds))") {
        _ = signal.buffer(withTime: seconds, on: RACScheduler())
      }
      add("timeout: \(seconds)", "timeout: interval must be finite and not negative (got \(seconds))") {
        _ = signal.timeout(seconds, on: RACScheduler())
      }
      add("interval leeway \(seconds)", "interval:onScheduler:withLeeway: interval must be finite and not negative") {
        _ = RACSignal<Date>.interval(1, on: RACScheduler(), withLeeway: seconds)
      }
    }
    for interval in [0, -1, -.infinity, .nan] as [TimeInterval] {
      add("interval \(interval)", "interval:onScheduler: interval must be greater than 0") {
        _ = RACSignal<Date>.interval(interval, on: RACScheduler(), withLeeway: 0)
      }
    }
    add("interval +inf", "interval:onScheduler: interval must be finite and not negative (got inf)") {
      _ = RACSignal<Date>.interval(.infinity, on: RACScheduler(), withLeeway: 0)
    }
    return table
  }()

  static var cases: [RefusedArgument] { table.cases }

  /// Makes the call of case `id` (in the exit test's child process).
  static func perform(_ id: String) { table.perform(id) }
}
