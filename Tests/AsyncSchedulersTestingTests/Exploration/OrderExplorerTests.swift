import AsyncSchedulersTestSupport
import Testing

@testable import AsyncSchedulers
@testable import AsyncSchedulersTesting

/// A ready job in the model: its lane, task and an identity to follow it.
private struct ModelJob {
  let lane: OrderExplorer.Lane
  let task: UInt64
  let id: Int
}

@Suite("OrderExplorer")
struct OrderExplorerTests {
  @Test(
    "Over 300 seeded sequences (30 under ThreadSanitizer), every choice is the first job of its lane, follows the seed, and is recorded"
  )
  func modelBasedChoices() async {
    // Seconds of CPU: on a thread of its own, not one of the cooperative pool's (see runModel).
    let failures = await runModel { failures in
      for seed in UInt64(0)..<(ThreadSanitizerHooks.shared == nil ? 300 : 30) {
        var events = SplitMix(seed: seed &* 31 &+ 7)
        let strategy: OrderingStrategy =
          seed % 3 == 0 ? .random : .pct(depth: Int(seed % 4) + 1, expectedDecisions: Int(seed % 17) + 1)
        var explorer = OrderExplorer(seed: seed, strategy: strategy)
        var twin = OrderExplorer(seed: seed, strategy: strategy)
        explorer.activate()
        twin.activate()
        var ready: [ModelJob] = []
        var nextID = 0
        var choices = 0
        var jobs = 0
        for step in 0..<200 {
          // Enqueue zero to three jobs: a task has at most one job ready at a time.
          for _ in 0..<Int(events.next() % 4) {
            let lane: OrderExplorer.Lane
            let task: UInt64
            switch events.next() % 4 {
            case 0:
              task = events.next() % 6 + 1
              lane = .task(task)
              if ready.contains(where: { $0.lane == lane }) { continue }
            case 1:
              task = events.next() % 6 + 1
              lane = .mainActor
            case 2:
              task = 0
              lane = .scheduler
            default:
              task = 0
              lane = .job(UInt(events.next() % 3 + 1))
              if ready.contains(where: { $0.lane == lane }) { continue }
            }
            ready.append(ModelJob(lane: lane, task: task, id: nextID))
            nextID += 1
          }
          guard !ready.isEmpty else { continue }
          let lanes = ready.map { (lane: $0.lane, task: $0.task) }
          let offset = explorer.choose(among: lanes, now: .zero)
          let same = twin.choose(among: lanes, now: .zero)
          jobs += 1
          if Set(ready.map(\.lane)).count > 1 { choices += 1 }
          // Invariants after every step (checked without a macro per step: 120,000 steps).
          guard offset >= 0 && offset < ready.count else {
            failures.record("seed \(seed), step \(step): offset \(offset) out of range")
            return
          }
          let chosen = ready[offset]
          if ready[..<offset].contains(where: { $0.lane == chosen.lane }) {
            failures.record("seed \(seed), step \(step): a job ran before an earlier job of its lane")
            return
          }
          if same != offset {
            failures.record("seed \(seed), step \(step): the same seed chose differently")
            return
          }
          ready.remove(at: offset)
        }
        let trace = explorer.trace
        failures.check(trace == twin.trace, "seed \(seed): traces differ")
        failures.check(
          trace.decisionCount == choices, "seed \(seed): \(trace.decisionCount) decisions, \(choices) choices")
        failures.check(trace.jobCount == jobs, "seed \(seed): \(trace.jobCount) jobs recorded, \(jobs) run")
        failures.check(
          trace.decisions.allSatisfy { $0.ready.contains($0.ran) && $0.ready.count > 1 },
          "seed \(seed): a decision ran a job that was not ready, or had no choice")
      }
    }
    #expect(failures.isEmpty, "\(failures)")
  }

  @Test("Random choices reach every lane's first job, and different seeds choose differently")
  func randomChoicesCoverEveryLane() {
    var firstChoices = Set<Int>()
    for seed in UInt64(0)..<64 {
      var explorer = OrderExplorer(seed: seed, strategy: .random)
      explorer.activate()
      let lanes: [(lane: OrderExplorer.Lane, task: UInt64)] = [
        (.task(1), 1), (.mainActor, 2), (.mainActor, 3), (.scheduler, 0), (.task(4), 4),
      ]
      firstChoices.insert(explorer.choose(among: lanes, now: .zero))
    }
    // Offset 2 is the main actor's second job: never a candidate.
    #expect(firstChoices == [0, 1, 3, 4])
  }

  @Test("PCT of depth 1 always runs the ready lane of highest priority")
  func pctDepthOneIsAPriorityOrder() {
    var explorer = OrderExplorer(seed: 9, strategy: .pct(depth: 1, expectedDecisions: 1))
    explorer.activate()
    let lanes: [(lane: OrderExplorer.Lane, task: UInt64)] = [(.task(1), 1), (.task(2), 2), (.task(3), 3)]
    let first = explorer.choose(among: lanes, now: .zero)
    for _ in 0..<20 { #expect(explorer.choose(among: lanes, now: .zero) == first) }
  }

  @Test("PCT change points demote the running lane below every other for the rest of the run")
  func pctChangePointsDemoteTheRunningLane() {
    for seed in UInt64(0)..<50 {
      // Three lanes, change points at the first two choices: the first demotes the top lane (A, to 1),
      // so the second-highest (B) runs; the second demotes B (to 2), so C runs, and then keeps running.
      var explorer = OrderExplorer(seed: seed, strategy: .pct(depth: 3, expectedDecisions: 2))
      explorer.activate()
      let lanes: [(lane: OrderExplorer.Lane, task: UInt64)] = [(.task(1), 1), (.task(2), 2), (.task(3), 3)]
      let first = explorer.choose(among: lanes, now: .zero)
      let second = explorer.choose(among: lanes, now: .zero)
      let third = explorer.choose(among: lanes, now: .zero)
      #expect(first != second, "seed \(seed)")
      #expect(third == second, "seed \(seed)")
      // Without C, B (demoted later, so to a higher priority than A) runs.
      let withoutC = lanes.enumerated().filter { $0.offset != second }.map(\.element)
      let fourth = explorer.choose(among: withoutC, now: .zero)
      #expect(withoutC[fourth].lane == lanes[first].lane, "seed \(seed)")
    }
  }

  @Test("With one lane ready there is no choice: the first job runs and nothing is recorded")
  func singleLaneIsNoChoice() {
    var explorer = OrderExplorer(seed: 1, strategy: .random)
    explorer.activate()
    let lanes: [(lane: OrderExplorer.Lane, task: UInt64)] = [(.mainActor, 1), (.mainActor, 2)]
    #expect(explorer.choose(among: lanes, now: .zero) == 0)
    #expect(explorer.trace.decisionCount == 0)
    #expect(explorer.trace.jobCount == 1)
  }

  @Test("Tasks are named by the order they first had a job ready")
  func tasksAreNamedInOrderOfAppearance() {
    var explorer = OrderExplorer(seed: 5, strategy: .random)
    explorer.activate()
    _ = explorer.choose(among: [(.task(900), 900), (.mainActor, 700), (.scheduler, 0)], now: .zero)
    #expect(explorer.trace.decisions.first?.ready == ["task 1", "main actor (task 2)", "scheduler queue"])
  }
}
