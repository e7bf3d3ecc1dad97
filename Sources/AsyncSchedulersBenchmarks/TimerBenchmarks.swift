import AsyncSchedulers
import AsyncSchedulersTesting
import Dispatch
import Foundation

/// A buffer of samples written by jobs that run one at a time (a serial scheduler or queue).
final class Samples: @unchecked Sendable {
  // Why @unchecked Sendable: written only by jobs of one serial scheduler (or serial queue), which run
  // one at a time with a lock handoff between them; read by the waiting thread after a semaphore.
  var values: [Double]
  var count = 0
  init(capacity: Int) { values = Array(repeating: 0, count: capacity) }
}

@inline(__always) func uptimeNanoseconds() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// The child side of scenario 5: schedules `count` one-shot jobs, each due a random delay within
/// `horizonMilliseconds` after it is scheduled, waits for all of them, and prints one result line:
/// how long after the latest deadline the last job ran, the p99 lateness, and the peak memory
/// above the idle process. With `BENCH_DEBUG` set it also splits lateness by whether the job was due
/// during the scheduling burst or after it.
func runManyTimersChild(kind: String, count: Int, horizonMilliseconds: Int) {
  let idleKilobytes = procStatusKilobytes("VmRSS")
  let samples = Samples(capacity: count)
  let done = DispatchSemaphore(value: 0)
  var generator = SplitMix(seed: 5)
  let horizon = UInt64(horizonMilliseconds) * 1_000_000
  let offsets = (0..<count).map { _ in generator.next() % horizon }
  var deadlines = [UInt64](repeating: 0, count: count)
  // Each deadline is relative to when its job is scheduled (`asyncAfter(deadline: .now() + d)`), so the
  // time the scheduling loop itself takes is not counted as lateness.
  let burstStarted = uptimeNanoseconds()
  let record: @Sendable (Int, UInt64) -> Void = { index, deadline in
    samples.values[index] = Double(uptimeNanoseconds() &- deadline)
    samples.count += 1
    if samples.count == count { done.signal() }
  }
  if kind == "ours" {
    // Fire-and-forget, like `asyncAfter`: no handle.
    let scheduler = SerialScheduler(name: "bench.timers")
    for (index, offset) in offsets.enumerated() {
      let deadline = uptimeNanoseconds() + offset
      deadlines[index] = deadline
      scheduler.execute(at: SchedulerInstant(offset: .nanoseconds(Int64(deadline)))) { record(index, deadline) }
    }
  } else if kind == "ours-low" {
    // Fire-and-forget on a low-latency scheduler (workers spin for imminent timers).
    let scheduler = SerialScheduler(name: "bench.timers.low", latencyMode: .lowLatency)
    for (index, offset) in offsets.enumerated() {
      let deadline = uptimeNanoseconds() + offset
      deadlines[index] = deadline
      scheduler.execute(at: SchedulerInstant(offset: .nanoseconds(Int64(deadline)))) { record(index, deadline) }
    }
  } else if kind == "ours-handles" {
    // Each timer with a cancellable handle (which the loop drops).
    let scheduler = SerialScheduler(name: "bench.timers")
    for (index, offset) in offsets.enumerated() {
      let deadline = uptimeNanoseconds() + offset
      deadlines[index] = deadline
      scheduler.schedule(at: SchedulerInstant(offset: .nanoseconds(Int64(deadline)))) { record(index, deadline) }
    }
  } else {
    let queue = DispatchQueue(label: "bench.timers.baseline")
    for (index, offset) in offsets.enumerated() {
      let deadline = uptimeNanoseconds() + offset
      deadlines[index] = deadline
      queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: deadline)) { record(index, deadline) }
    }
  }
  let burstEnded = uptimeNanoseconds()
  done.wait()
  let woken = uptimeNanoseconds()
  let latest = deadlines.max() ?? woken
  // When the last job ran (each job records its start, as lateness after its deadline), past the latest
  // deadline. The waiting thread's own wake-up (a semaphore, the same for both sides, tens of
  // microseconds here) is not the scheduler's time; BENCH_DEBUG prints the figure including it.
  let lastRun = zip(deadlines, samples.values).map { Double($0) + $1 }.max() ?? Double(woken)
  let past = (lastRun - Double(latest)) / 1e6
  let p99 = percentile(samples.values, 0.99) / 1e6
  let peak = procStatusKilobytes("VmHWM") - idleKilobytes
  if ProcessInfo.processInfo.environment["BENCH_DEBUG"] != nil {
    var during: [Double] = []
    var after: [Double] = []
    for (index, deadline) in deadlines.enumerated() {
      if deadline > burstEnded { after.append(samples.values[index]) } else { during.append(samples.values[index]) }
    }
    let lastIndex = deadlines.indices.max { deadlines[$0] < deadlines[$1] } ?? 0
    print(
      "burst \(Double(burstEnded - burstStarted) / 1e6) ms; due during it: \(during.count), p99 \(percentile(during, 0.99) / 1e6) ms;",
      "due after it: p50 \(percentile(after, 0.5) / 1e6) p99 \(percentile(after, 0.99) / 1e6) ms;",
      "last job late by \(samples.values[lastIndex] / 1e6) ms;",
      "waiting thread woken \(Double(Int64(woken) - Int64(latest)) / 1e6) ms past the horizon")
  }
  print("RESULT \(past) \(p99) \(peak)")
}

/// Scenario 5: 100,000 one-shot jobs at random deadlines within 500 ms, a fresh process per round:
/// fire-and-forget (`execute(at:)`, like `asyncAfter`), and (5b) with a cancellable handle each.
func manyTimers(_ options: RunOptions) -> [Figure] {
  let count = options.size(100_000, quick: 5_000)
  let horizon = options.quick ? 100 : 500
  func child(_ kind: String) -> (past: Double, p99: Double, peak: Double)? {
    guard let fields = runChild(["--child-timers", kind, String(count), String(horizon)]), fields.count == 3 else {
      return nil
    }
    return (fields[0], fields[1], fields[2])
  }
  _ = child("ours")
  _ = child("baseline")
  var ours: [(Double, Double, Double)] = []
  var handles: [(Double, Double, Double)] = []
  var low: [(Double, Double, Double)] = []
  var baseline: [(Double, Double, Double)] = []
  for _ in 0..<options.rounds {
    if let result = child("ours") { ours.append(result) }
    if let result = child("ours-low") { low.append(result) }
    if let result = child("ours-handles") { handles.append(result) }
    if let result = child("baseline") { baseline.append(result) }
  }
  guard !ours.isEmpty, !handles.isEmpty, !low.isEmpty, !baseline.isEmpty else { return [] }
  let results = RoundResults(ours: ours, baseline: baseline)
  return [
    results.figure("5 many timers: time past horizon", "ms", .ratio(0.5)) { $0.0 },
    results.figure("5 many timers: lateness p99", "ms", .absolute(1)) { $0.1 },
    results.figure("5 many timers: peak memory above idle", "KB", .ratio(1.0 / 3)) { $0.2 },
    results.figure("5 many timers, low-latency mode: time past horizon", "ms", .info, ours: low) { $0.0 },
    results.figure("5 many timers, low-latency mode: lateness p99", "ms", .info, ours: low) { $0.1 },
    results.figure("5b many timers, with handles: lateness p99", "ms", .absolute(1), ours: handles) { $0.1 },
    results.figure("5b many timers, with handles: peak memory", "KB", .ratio(1.0 / 3), ours: handles) { $0.2 },
  ]
}

/// Scenario 6: a 10 ms repeating timer for 2 s.
func repeatingTimer(_ options: RunOptions) -> [Figure] {
  let period: UInt64 = 10_000_000
  let ticks = options.quick ? 20 : 200
  func measure(ours: Bool, low: Bool = false) -> (ticks: Double, drift: Double, worst: Double) {
    let samples = Samples(capacity: ticks * 2)
    let done = DispatchSemaphore(value: 0)
    let start = uptimeNanoseconds() + period
    let stopAt = start + UInt64(ticks - 1) * period + period / 2
    let record: @Sendable () -> Void = {
      if samples.count < samples.values.count {
        samples.values[samples.count] = Double(uptimeNanoseconds())
        samples.count += 1
      }
    }
    if ours {
      let scheduler = SerialScheduler(name: "bench.repeating", latencyMode: low ? .lowLatency : .efficient)
      let timer = scheduler.scheduleRepeating(
        startingAt: SchedulerInstant(offset: .nanoseconds(Int64(start))), every: .nanoseconds(Int64(period)),
        leeway: .zero, record)
      scheduler.schedule(at: SchedulerInstant(offset: .nanoseconds(Int64(stopAt)))) {
        timer.dispose()
        done.signal()
      }
      done.wait()
    } else {
      let queue = DispatchQueue(label: "bench.repeating.baseline")
      let source = SourceBox(DispatchSource.makeTimerSource(queue: queue)).source
      source.schedule(
        deadline: DispatchTime(uptimeNanoseconds: start), repeating: .nanoseconds(Int(period)), leeway: .nanoseconds(0))
      source.setEventHandler(handler: record)
      source.activate()
      let box = SourceBox(source)
      queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: stopAt)) {
        box.source.cancel()
        done.signal()
      }
      done.wait()
    }
    let times = Array(samples.values[0..<samples.count])
    var worst = 0.0
    for (index, time) in times.enumerated() {
      worst = max(worst, time - Double(start + UInt64(index) * period))
    }
    let drift = times.last.map { $0 - Double(start + UInt64(times.count - 1) * period) } ?? .nan
    if ProcessInfo.processInfo.environment["BENCH_DEBUG"] != nil {
      let lateness = times.enumerated().map { ($0.element - Double(start + UInt64($0.offset) * period)) / 1e6 }
      print(
        ours ? "ours" : "baseline", "tick lateness ms: p50", percentile(lateness, 0.5), "p90",
        percentile(lateness, 0.9),
        "p99", percentile(lateness, 0.99), "max", lateness.max() ?? .nan)
    }
    return (Double(times.count), drift / 1e6, worst / 1e6)
  }
  var ours: [(Double, Double, Double)] = []
  var low: [(Double, Double, Double)] = []
  var baseline: [(Double, Double, Double)] = []
  let rounds = options.quick ? 2 : 5
  for _ in 0..<rounds {
    ours.append(measure(ours: true))
    low.append(measure(ours: true, low: true))
    baseline.append(measure(ours: false))
  }
  let results = RoundResults(ours: ours, baseline: baseline)
  return [
    results.figure("6 repeating timer: ticks", "ticks", .exactly(Double(ticks))) { $0.0 },
    results.figure("6 repeating timer: drift of last tick", "ms", .absolute(0.3)) { $0.1 },
    results.figure("6 repeating timer: latest tick", "ms", .absolute(0.5)) { $0.2 },
    results.figure("6 repeating timer, low-latency mode: drift", "ms", .info, ours: low) { $0.1 },
    results.figure("6 repeating timer, low-latency mode: latest tick", "ms", .info, ours: low) { $0.2 },
  ]
}

/// Carries a Dispatch timer source into a closure.
final class SourceBox: @unchecked Sendable {
  // Why @unchecked Sendable: DispatchSource's methods are thread-safe (libdispatch's contract); the box
  // only carries the reference, which never changes.
  let source: any DispatchSourceTimer
  init(_ source: any DispatchSourceTimer) { self.source = source }
}
