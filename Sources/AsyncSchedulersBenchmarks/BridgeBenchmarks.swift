import AsyncSchedulers
import AsyncSchedulersBridge
import Dispatch

/// Scenario 9: `RACScheduler.schedule` against the core's own `schedule` of the same job.
func bridgeOverhead(_ options: RunOptions) -> [Figure] {
  let count = options.size(1_000_000, quick: 20_000)
  let core = SerialScheduler(name: "bench.bridge.core")
  let bridged = RACScheduler(priority: .default, name: "bench.bridge")
  return [
    compare(
      scenario: "9 bridge overhead", operations: count, options: options, target: .ratio(1.15),
      ours: {
        let done = DispatchSemaphore(value: 0)
        return time {
          for _ in 0..<count - 1 { bridged.schedule {} }
          bridged.schedule { done.signal() }
          done.wait()
        }
      },
      baseline: {
        let done = DispatchSemaphore(value: 0)
        return time {
          for _ in 0..<count - 1 { core.schedule {} }
          core.schedule { done.signal() }
          done.wait()
        }
      })
  ]
}
