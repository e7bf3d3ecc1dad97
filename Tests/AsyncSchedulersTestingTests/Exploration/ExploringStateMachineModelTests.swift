import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers

/// Drives `TestSchedulerStateMachine` exploring orderings with seeded random events (jobs of every lane
/// arriving, exploration turned on and off, pops of ready work) against a reference: the ready jobs in
/// enqueue order with their lanes. After every step, the machine holds the same jobs; every job it runs
/// while exploring is the first ready job of its lane (so every explored trace is an interleaving of
/// the lanes' FIFO orders: the main queue's one lane included), and the first ready job when not.
@Suite("TestSchedulerStateMachine exploring model")
struct ExploringStateMachineModelTests {
  struct ModelJob {
    let id: Int
    let lane: OrderExplorer.Lane
  }

  @Test("every explored choice is the first ready job of its lane, and lanes stay in step with the FIFO")
  func choicesInterleaveLaneOrders() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(300) {
        var random = SplitMix(seed: seed)
        var machine = TestSchedulerStateMachine(now: .zero, maximumJobsPerInstant: 100_000, creator: .thread(0))
        var ready: [ModelJob] = []
        var markers: [ObjectIdentifier: Int] = [:]
        var nextID = 0
        var explored = 0
        func fail(_ message: String, _ step: Int) { failures.record("seed \(seed) step \(step): \(message)") }
        // Work queued before the run explores carries no lane: it counts as the scheduler's queue.
        for _ in 0..<Int(random.next() % 3) {
          let action = ScheduledAction {}
          markers[ObjectIdentifier(action)] = nextID
          _ = machine.enqueue(.action(action), lane: nil)
          ready.append(ModelJob(id: nextID, lane: .scheduler))
          nextID += 1
        }
        let strategy: OrderingStrategy = seed % 2 == 0 ? .random : .pct(depth: 3, expectedDecisions: 40)
        machine.explore(with: OrderExplorer(seed: seed, strategy: strategy))
        machine.setExploring(true)
        machine.beginDriving()
        for step in 0..<300 {
          switch random.next() % 7 {
          case 0, 1, 2:
            let lane: OrderExplorer.Lane
            var task: UInt64 = 0
            switch random.next() % 4 {
            case 0:
              task = random.next() % 5 + 1
              lane = .task(task)
            case 1:
              task = random.next() % 3
              lane = .mainActor
            case 2: lane = .scheduler
            default: lane = .job(UInt(random.next() % 3 + 1))
            }
            let action = ScheduledAction {}
            markers[ObjectIdentifier(action)] = nextID
            _ = machine.enqueue(.action(action), lane: (lane, task))
            ready.append(ModelJob(id: nextID, lane: lane))
            nextID += 1
          case 3, 4, 5:
            let work = machine.popReady()
            guard !ready.isEmpty else {
              if work != nil { fail("popReady returned work with nothing ready", step) }
              continue
            }
            guard case .action(let action)? = work, let id = markers[ObjectIdentifier(action)],
              let index = ready.firstIndex(where: { $0.id == id })
            else {
              fail("popReady returned no known job with \(ready.count) ready", step)
              continue
            }
            let job = ready[index]
            if machine.firesDueTimersTogether {
              explored += 1
              if ready.firstIndex(where: { $0.lane == job.lane }) != index {
                fail("job \(id) ran before an earlier job of its lane \(job.lane)", step)
              }
            } else if index != 0 {
              fail("job \(id) ran out of FIFO order while not exploring", step)
            }
            ready.remove(at: index)
          default:
            machine.setExploring(random.next() % 4 != 0)
          }
          if machine.pendingCount != ready.count || machine.exploration?.count != ready.count {
            fail("\(machine.pendingCount) ready, \(machine.exploration?.count ?? -1) lanes, model \(ready.count)", step)
          }
        }
        if explored == 0 { fail("no job ran while exploring", 300) }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }
}
