import AsyncSchedulers
import Dispatch

/// Scenario 1: empty callback jobs scheduled from one thread onto a serial scheduler, then drained.
func callbackThroughput(_ options: RunOptions) -> [Figure] {
  let count = options.size(1_000_000, quick: 20_000)
  let scheduler = SerialScheduler(name: "bench.callback")
  let lowLatency = SerialScheduler(name: "bench.callback.low", latencyMode: .lowLatency)
  let queue = DispatchQueue(label: "bench.callback.baseline")
  let baseline = { drainTime(count) { queue.async(execute: $0) } }
  return [
    compare(
      scenario: "1 callback throughput (execute)", operations: count, options: options, target: .ratio(0.33),
      ours: { drainTime(count) { scheduler.execute($0) } }, baseline: baseline),
    compare(
      scenario: "1b callback throughput (schedule, handle)", operations: count, options: options,
      target: .ratio(0.33), ours: { drainTime(count) { scheduler.schedule($0) } }, baseline: baseline),
    compare(
      scenario: "1b callback throughput (schedule), low-latency mode", operations: count, options: options,
      target: .info, ours: { drainTime(count) { lowLatency.schedule($0) } }, baseline: baseline),
  ]
}

/// Scenario 4: jobs disposed right after scheduling, then drained.
func scheduleAndDispose(_ options: RunOptions) -> [Figure] {
  let count = options.size(1_000_000, quick: 20_000)
  let scheduler = SerialScheduler(name: "bench.dispose")
  let queue = DispatchQueue(label: "bench.dispose.baseline")
  return [
    compare(
      scenario: "4 schedule and dispose", operations: count, options: options, target: .ratio(0.5),
      ours: {
        let done = DispatchSemaphore(value: 0)
        return time {
          for _ in 0..<count - 1 { scheduler.schedule {}.dispose() }
          scheduler.schedule { done.signal() }
          done.wait()
        }
      },
      baseline: {
        let done = DispatchSemaphore(value: 0)
        return time {
          for _ in 0..<count - 1 {
            let item = DispatchWorkItem {}
            queue.async(execute: item)
            item.cancel()
          }
          queue.async { done.signal() }
          done.wait()
        }
      })
  ]
}

/// The child side of scenario 10: creates `count` serial schedulers (or Dispatch queues), gives each
/// one job, waits for all, and prints the resident memory per scheduler and the threads created.
func runCreationChild(kind: String, count: Int) {
  let threadsBefore = threadCount()
  let rssBefore = procStatusKilobytes("VmRSS")
  let done = DispatchSemaphore(value: 0)
  var keep: [AnyObject] = []
  keep.reserveCapacity(count)
  for index in 0..<count {
    if kind == "ours" {
      let scheduler = SerialScheduler(name: "s\(index)")
      scheduler.schedule { done.signal() }
      keep.append(scheduler)
    } else {
      let queue = DispatchQueue(label: "q\(index)")
      queue.async { done.signal() }
      keep.append(queue)
    }
  }
  for _ in 0..<count { done.wait() }
  let rssAfter = procStatusKilobytes("VmRSS")
  let threadsAfter = threadCount()
  withExtendedLifetime(keep) {}
  print("RESULT \((rssAfter - rssBefore) * 1024 / Double(count)) \(max(0, threadsAfter - threadsBefore))")
}

/// Scenario 10: many serial schedulers, each given one job; memory per scheduler and threads created,
/// each round in a fresh process.
func creation(_ options: RunOptions) -> [Figure] {
  let count = options.size(10_000, quick: 2_000)
  var ours: [[Double]] = []
  var baseline: [[Double]] = []
  for _ in 0..<options.rounds {
    if let result = runChild(["--child-creation", "ours", String(count)]), result.count == 2 { ours.append(result) }
    if let result = runChild(["--child-creation", "baseline", String(count)]), result.count == 2 {
      baseline.append(result)
    }
  }
  guard !ours.isEmpty, !baseline.isEmpty else { return [] }
  let oursBytes = ours.map { $0[0] }
  let baseBytes = baseline.map { $0[0] }
  let oursThreads = ours.map { $0[1] }
  let baseThreads = baseline.map { $0[1] }
  return [
    Figure(
      scenario: "10 creation: memory per scheduler", ours: median(oursBytes), baseline: median(baseBytes),
      unit: "bytes", target: .absolute(1024), oursSpread: oursBytes.min()!...oursBytes.max()!,
      baselineSpread: baseBytes.min()!...baseBytes.max()!),
    Figure(
      scenario: "10 creation: threads created", ours: oursThreads.max()!, baseline: baseThreads.max()!,
      unit: "threads", target: .absolute(16), oursSpread: oursThreads.min()!...oursThreads.max()!,
      baselineSpread: baseThreads.min()!...baseThreads.max()!),
  ]
}
