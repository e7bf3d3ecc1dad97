import AsyncSchedulers
import AsyncSchedulersBridge

/// Scenario 9: `RACScheduler.schedule` against the core's own `schedule` of the same job.
func bridgeOverhead(_ options: RunOptions) -> [Figure] {
  let count = options.size(1_000_000, quick: 20_000)
  let core = SerialScheduler(name: "bench.bridge.core")
  let bridged = RACScheduler(priority: .default, name: "bench.bridge")
  return [
    compare(
      scenario: "9 bridge overhead", operations: count, options: options, target: .ratio(1.15),
      ours: { drainTime(count) { bridged.schedule($0) } },
      baseline: { drainTime(count) { core.schedule($0) } })
  ]
}
