import AsyncSchedulers
import Dispatch

actor BoundPinger {
  let executor: UnownedSerialExecutor
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor }
  var count = 0
  init(executor: UnownedSerialExecutor) { self.executor = executor }
  func run(_ n: Int, _ other: BoundPonger) async -> Int {
    for _ in 0..<n {
      count += await other.pong()
    }
    return count
  }
}

actor BoundPonger {
  let executor: UnownedSerialExecutor
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor }
  var count = 0
  init(executor: UnownedSerialExecutor) { self.executor = executor }
  func pong() -> Int {
    count += 1
    return count & 1
  }
}

actor DefaultPinger {
  var count = 0
  func run(_ n: Int, _ other: DefaultPonger) async -> Int {
    for _ in 0..<n {
      count += await other.pong()
    }
    return count
  }
}

actor DefaultPonger {
  var count = 0
  func pong() -> Int {
    count += 1
    return count & 1
  }
}

/// Scenario 2: two actors bound to one scheduler calling each other, against two default actors.
func sameSchedulerActorCalls(_ options: RunOptions) -> [Figure] {
  let count = options.size(1_000_000, quick: 20_000)
  let scheduler = SerialScheduler(name: "bench.actors")
  let a = BoundPinger(executor: scheduler.unownedSerialExecutor)
  let b = BoundPonger(executor: scheduler.unownedSerialExecutor)
  let x = DefaultPinger()
  let y = DefaultPonger()
  return [
    compare(
      scenario: "2 same-scheduler actor calls", operations: count, options: options, target: .ratio(0.5),
      ours: { time { _ = blocking { await a.run(count, b) } } },
      baseline: { time { _ = blocking { await x.run(count, y) } } })
  ]
}

/// Scenario 3: round trips between actors on two different schedulers, against the same with two
/// executors that merely wrap a serial DispatchQueue.
func crossSchedulerHop(_ options: RunOptions) -> [Figure] {
  let count = options.size(50_000, quick: 2_000)
  let first = SerialScheduler(name: "bench.hop.1")
  let second = SerialScheduler(name: "bench.hop.2")
  let a = BoundPinger(executor: first.unownedSerialExecutor)
  let b = BoundPonger(executor: second.unownedSerialExecutor)
  let q1 = DispatchQueueExecutor(label: "bench.hop.q1")
  let q2 = DispatchQueueExecutor(label: "bench.hop.q2")
  let x = BoundPinger(executor: q1.asUnownedSerialExecutor())
  let y = BoundPonger(executor: q2.asUnownedSerialExecutor())
  let lowFirst = SerialScheduler(name: "bench.hop.low.1", latencyMode: .lowLatency)
  let lowSecond = SerialScheduler(name: "bench.hop.low.2", latencyMode: .lowLatency)
  let lowA = BoundPinger(executor: lowFirst.unownedSerialExecutor)
  let lowB = BoundPonger(executor: lowSecond.unownedSerialExecutor)
  return [
    compare(
      scenario: "3 cross-scheduler hop", operations: count, options: options, target: .ratio(0.6),
      ours: { time { _ = blocking { await a.run(count, b) } } },
      baseline: { time { _ = blocking { await x.run(count, y) } } }),
    compare(
      scenario: "3 cross-scheduler hop, low-latency mode", operations: count, options: options, target: .info,
      ours: { time { _ = blocking { await lowA.run(count, lowB) } } },
      baseline: { time { _ = blocking { await x.run(count, y) } } }),
  ]
}
