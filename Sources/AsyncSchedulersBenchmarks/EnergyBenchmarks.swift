import AsyncSchedulers
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Sleeps until `deadline` (uptime nanoseconds) in the kernel.
private func sleep(untilUptime deadline: UInt64) {
  let now = uptimeNanoseconds()
  guard deadline > now else { return }
  let delta = deadline - now
  var request = timespec(tv_sec: Int(delta / 1_000_000_000), tv_nsec: Int(delta % 1_000_000_000))
  var remaining = timespec()
  while nanosleep(&request, &remaining) != 0 { request = remaining }
}

/// The child side of scenario 12: runs one energy workload (`workload`, on `side`: ours, ours with
/// the low-latency mode, or the Dispatch baseline) for `seconds`, and prints the process CPU time it
/// used and the wall time it took. `cold`: no warm-up first, so the measurement includes what a fresh
/// process pays on first use (starting threads, the first arming), as an app starting a timer does.
func runEnergyChild(workload: String, side: String, seconds: Double, cold: Bool = false) {
  let mode: SchedulerLatencyMode = side == "low" ? .lowLatency : .efficient
  let ours = side != "baseline"
  let duration = UInt64(seconds * 1e9)
  let done = DispatchSemaphore(value: 0)
  if !cold {
    // Warm up the threads each side uses (Dispatch's pool, the alarm thread), outside the measurement.
    let warmScheduler = SerialScheduler(name: "bench.energy.warm", latencyMode: mode)
    warmScheduler.execute(at: .uptimeNow.advanced(by: .milliseconds(1))) { done.signal() }
    done.wait()
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(1)) { done.signal() }
    done.wait()
  }

  let cpuBefore = processCPUSeconds()
  let splitBefore = processCPUSplit()
  let wallBefore = uptimeNanoseconds()
  let start = wallBefore + 1_000_000
  let end = start + duration
  switch workload {
  case "repeating":
    // A 60 Hz repeating timer.
    let period = UInt64(1e9 / 60)
    let stopAt = end
    if ours {
      let scheduler = SerialScheduler(name: "bench.energy.repeating", latencyMode: mode)
      let timer = scheduler.scheduleRepeating(
        startingAt: SchedulerInstant(offset: .nanoseconds(Int64(start))), every: .nanoseconds(Int64(period))
      ) {}
      scheduler.schedule(at: SchedulerInstant(offset: .nanoseconds(Int64(stopAt)))) {
        timer.dispose()
        done.signal()
      }
    } else {
      let queue = DispatchQueue(label: "bench.energy.repeating")
      let box = SourceBox(DispatchSource.makeTimerSource(queue: queue))
      box.source.schedule(
        deadline: DispatchTime(uptimeNanoseconds: start), repeating: .nanoseconds(Int(period)), leeway: .nanoseconds(0))
      box.source.setEventHandler {}
      box.source.activate()
      queue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: stopAt)) {
        box.source.cancel()
        done.signal()
      }
    }
    done.wait()
  case "oneshots":
    // One-shot timers due every millisecond, all scheduled up front.
    let count = Int(duration / 1_000_000)
    if ours {
      let scheduler = SerialScheduler(name: "bench.energy.oneshots", latencyMode: mode)
      for index in 1...count {
        let deadline = SchedulerInstant(offset: .nanoseconds(Int64(start + UInt64(index) * 1_000_000)))
        if index == count {
          scheduler.execute(at: deadline) { done.signal() }
        } else {
          scheduler.execute(at: deadline) {}
        }
      }
    } else {
      let queue = DispatchQueue(label: "bench.energy.oneshots")
      for index in 1...count {
        let deadline = DispatchTime(uptimeNanoseconds: start + UInt64(index) * 1_000_000)
        if index == count {
          queue.asyncAfter(deadline: deadline) { done.signal() }
        } else {
          queue.asyncAfter(deadline: deadline) {}
        }
      }
    }
    done.wait()
  case "producer":
    // A producer thread posting one job every 200 µs (the producer's own sleeps count on both sides).
    let count = Int(duration / 200_000)
    let scheduler = SerialScheduler(name: "bench.energy.producer", latencyMode: mode)
    let queue = DispatchQueue(label: "bench.energy.producer")
    for index in 1...count {
      sleep(untilUptime: start + UInt64(index) * 200_000)
      let last = index == count
      if ours {
        scheduler.execute { if last { done.signal() } }
      } else {
        queue.async { if last { done.signal() } }
      }
    }
    done.wait()
  default:
    // Idle: a scheduler (or queue) with one timer an hour away, for the whole duration.
    if ours {
      let scheduler = SerialScheduler(name: "bench.energy.idle", latencyMode: mode)
      let timer = scheduler.schedule(at: .uptimeNow.advanced(by: .seconds(3600))) {}
      sleep(untilUptime: end)
      timer.dispose()
    } else {
      let queue = DispatchQueue(label: "bench.energy.idle")
      let item = DispatchWorkItem {}
      queue.asyncAfter(deadline: .now() + .seconds(3600), execute: item)
      sleep(untilUptime: end)
      item.cancel()
    }
  }
  let cpu = processCPUSeconds() - cpuBefore
  let wall = Double(uptimeNanoseconds() - wallBefore) / 1e9
  if ProcessInfo.processInfo.environment["BENCH_DEBUG"] != nil {
    let split = processCPUSplit()
    print("user \((split.user - splitBefore.user) * 1000) ms, system \((split.system - splitBefore.system) * 1000) ms")
    // Per thread (Linux): name and time on CPU (schedstat, nanoseconds) over the whole process life.
    for task in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? [] {
      let name = (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)) ?? "?"
      let stat = (try? String(contentsOfFile: "/proc/self/task/\(task)/schedstat", encoding: .utf8)) ?? "?"
      let onCPU = (Double(stat.split(separator: " ").first ?? "0") ?? 0) / 1e6
      print("  thread \(task) \(name.trimmingCharacters(in: .whitespacesAndNewlines)): \(onCPU) ms on CPU")
    }
  }
  print("RESULT \(cpu) \(wall)")
}

/// Scenario 12: CPU time (process user + system) for the same work, ours ÷ Dispatch, each round in a
/// fresh process; the efficient default is held to the targets, and the low-latency mode's cost is
/// reported beside it.
func energy(_ options: RunOptions) -> [Figure] {
  let rounds = options.quick ? 1 : 3
  let workloads: [(name: String, key: String, seconds: Double, target: Figure.Target)] = [
    ("12a CPU: 60 Hz repeating timer", "repeating", 3, .ratio(1.0)),
    ("12b CPU: one-shot timer every 1 ms", "oneshots", 2, .ratio(1.0)),
    ("12c CPU: a job posted every 200 µs", "producer", 2, .ratio(1.0)),
    ("12d CPU: idle, a timer an hour away", "idle", 2, .absolute(1)),
    ("12e CPU, fresh process: 60 Hz repeating timer", "repeating cold", 3, .ratio(1.0)),
    ("12f CPU, fresh process: one-shot timer every 1 ms", "oneshots cold", 2, .ratio(1.0)),
  ]
  var figures: [Figure] = []
  for workload in workloads {
    let seconds = options.quick ? 0.3 : workload.seconds
    var samples: [String: [Double]] = [:]
    for _ in 0..<rounds {
      for side in ["ours", "low", "baseline"] {
        let arguments =
          ["--child-energy"] + workload.key.split(separator: " ").prefix(1).map(String.init) + [side, String(seconds)]
          + (workload.key.hasSuffix(" cold") ? ["cold"] : [])
        guard let fields = runChild(arguments), fields.count == 2 else {
          continue
        }
        samples[side, default: []].append(fields[0] * 1000)
      }
    }
    guard let ours = samples["ours"], let low = samples["low"], let baseline = samples["baseline"] else { continue }
    let name = workload.name + ", \(format(seconds)) s"
    figures.append(figure(name, unit: "ms CPU", target: workload.target, ours: ours, baseline: baseline))
    figures.append(figure(name + ", low-latency mode", unit: "ms CPU", target: .info, ours: low, baseline: baseline))
  }
  return figures
}
