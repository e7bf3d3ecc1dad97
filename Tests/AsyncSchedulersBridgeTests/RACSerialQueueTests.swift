import AsyncSchedulers
import AsyncSchedulersBridge
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Dispatch
import Synchronization
import Testing

@Suite("RAC serial queue")
struct RACSerialQueueTests {
  @Test("a RACScheduler over a concurrent core runs blocks one at a time, in order per producer, from 8 threads")
  func concurrentCoreIsSerialized() async {
    let core = ConcurrentScheduler(maxConcurrentJobs: 4)
    let scheduler = RACScheduler(core: core, name: "serialized")
    let running = Atomic<Int>(0)
    let overlaps = Atomic<Int>(0)
    let order = Mutex<[Int: [Int]]>([:])
    let producers = 8
    let perProducer = 500
    let done = Latch(count: producers * perProducer + producers)
    for producer in 0..<producers {
      DispatchQueue.global().async {
        for index in 0..<perProducer {
          scheduler.schedule {
            if running.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue > 1 {
              overlaps.wrappingAdd(1, ordering: .relaxed)
            }
            order.withCriticalRegion { $0[producer, default: []].append(index) }
            running.wrappingSubtract(1, ordering: .acquiringAndReleasing)
            done.signal()
          }
        }
        // A timer block joins the same serial queue.
        scheduler.afterDelay(0.001) {
          if running.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue > 1 {
            overlaps.wrappingAdd(1, ordering: .relaxed)
          }
          running.wrappingSubtract(1, ordering: .acquiringAndReleasing)
          done.signal()
        }
      }
    }
    #expect(await done.wait())
    #expect(overlaps.load(ordering: .relaxed) == 0)
    #expect(order.withCriticalRegion { $0.values.allSatisfy { $0 == Array(0..<perProducer) } })
  }

  @Test("current() inside a serialized block is the RAC scheduler")
  func currentInsideSerializedBlock() async {
    let scheduler = RACScheduler(core: ConcurrentScheduler(maxConcurrentJobs: 2), name: "serialized.current")
    let done = Latch()
    let seen = Log<Bool>()
    scheduler.schedule {
      seen.append(RACScheduler.current() === scheduler)
      done.signal()
    }
    #expect(await done.wait())
    #expect(seen.values == [true])
  }
}

@Suite("RACSerialQueueStateMachine model")
struct RACSerialQueueStateMachineModelTests {
  @Test("random enqueues and drains keep FIFO order and at most one drain")
  func stateMachineModel() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(2_000) {
        var random = SplitMix(seed: seed)
        var machine = RACSerialQueueStateMachine<Int>()
        var model: [Int] = []
        var drains = 0
        var next = 0
        var taken: [Int] = []
        for _ in 0..<200 {
          if random.next() % 2 == 0 {
            model.append(next)
            if machine.enqueue(next) { drains += 1 }
            next += 1
          } else if drains == 1 {
            if let job = machine.next() {
              taken.append(job)
              failures.check(job == model.removeFirst(), "seed \(seed)")
            } else {
              failures.check(model.isEmpty, "seed \(seed)")
              drains -= 1
            }
          }
          failures.check(drains <= 1 && drains == (machine.isDraining ? 1 : 0), "seed \(seed)")
          failures.check(machine.count == model.count, "seed \(seed)")
        }
        failures.check(taken == Array(0..<taken.count), "seed \(seed)")
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }
}
