import AsyncSchedulers
import AsyncSchedulersBridge
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Dispatch
import Synchronization
import Testing

/// Seeded random sequences on the RAC disposables and on bridged blocks, against small reference
/// models, with deinit counters for every closure.
@Suite("RAC disposables model")
struct RACDisposablesModelTests {
  @Test("bridged blocks: random schedules, disposes and steps run exactly the blocks not disposed before their turn")
  func bridgedBlocks() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(1_000) {
        var random = SplitMix(seed: seed)
        let core = TestScheduler()
        let scheduler = RACScheduler(core: core)
        let counter = LifetimeCounter()
        let ran = Log<Int>()
        var blocks: [(id: Int, disposable: RACDisposable, disposedBeforeRun: Bool)] = []
        var queue: [Int] = []
        var expectedRuns: [Int] = []
        for step in 0..<40 {
          switch random.next() % 4 {
          case 0, 1:
            let id = blocks.count
            let disposable = scheduler.schedule { [token = counter.make()] in
              withExtendedLifetime(token) { ran.append(id) }
            }!
            blocks.append((id, disposable, false))
            queue.append(id)
          case 2 where !blocks.isEmpty:
            let index = Int(random.next() % UInt64(blocks.count))
            blocks[index].disposable.dispose()
            if queue.contains(index) { blocks[index].disposedBeforeRun = true }
          default:
            // One step runs the next block that was not disposed (disposed ones are skipped).
            core.step()
            while let next = queue.first {
              queue.removeFirst()
              if !blocks[next].disposedBeforeRun {
                expectedRuns.append(next)
                break
              }
            }
          }
          if ran.values != expectedRuns {
            failures.record("seed \(seed) step \(step): ran \(ran.values), model \(expectedRuns)")
          }
          let pending = queue.filter { !blocks[$0].disposedBeforeRun }.count
          if counter.count != pending {
            failures.record("seed \(seed) step \(step): \(counter.count) closures alive, model \(pending)")
          }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  @Test("RACSerialDisposable: random swaps and disposes match RAC's rules")
  func serial() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(2_000) {
        var random = SplitMix(seed: seed)
        let serial = RACSerialDisposable()
        var current: RACDisposable?
        var disposed = false
        var all: [RACDisposable] = []
        var expectedDisposed = Set<ObjectIdentifier>()
        for step in 0..<30 {
          if random.next() % 4 == 0 {
            serial.dispose()
            if !disposed, let current { expectedDisposed.insert(ObjectIdentifier(current)) }
            disposed = true
            current = nil
          } else {
            let next = RACDisposable()
            all.append(next)
            let previous = serial.swapIn(next)
            if disposed {
              expectedDisposed.insert(ObjectIdentifier(next))
              if previous != nil {
                failures.record("seed \(seed) step \(step): swapIn after dispose returned a disposable")
              }
            } else {
              if previous !== current {
                failures.record("seed \(seed) step \(step): swapIn returned the wrong previous")
              }
              current = next
            }
          }
          for disposable in all where disposable.isDisposed != expectedDisposed.contains(ObjectIdentifier(disposable)) {
            failures.record("seed \(seed) step \(step): a disposable's state differs from RAC's rules")
          }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }
}

/// 8 threads racing on the RAC disposables: exactly-once and never-after-dispose checked with counters.
@Suite("RAC disposables under stress")
struct RACDisposablesStressTests {
  @Test("8 threads adding to and disposing compound disposables: every child disposed exactly once")
  func compound() async {
    let outcome = await onDedicatedThread { () -> (children: Int, disposals: Int, twice: Int) in
      let disposals = Atomic<Int>(0)
      let twice = Atomic<Int>(0)
      var children = 0
      for _ in 0..<200 * ModelTesting.soak {
        let compound = RACCompoundDisposable()
        let perThread = 20
        race { thread in
          if thread == 7 {
            compound.dispose()
            return
          }
          for _ in 0..<perThread {
            let count = Atomic<Int>(0)
            compound.add(
              RACDisposable {
                if count.wrappingAdd(1, ordering: .relaxed).newValue > 1 { twice.wrappingAdd(1, ordering: .relaxed) }
                disposals.wrappingAdd(1, ordering: .relaxed)
              })
          }
        }
        children += 7 * perThread
      }
      return (children, disposals.load(ordering: .relaxed), twice.load(ordering: .relaxed))
    }
    // Every child is disposed: by the compound's dispose, or at once when added after it.
    #expect(outcome.disposals == outcome.children)
    #expect(outcome.twice == 0)
  }

  @Test("8 threads swapping into and disposing serial disposables: the current inner disposed exactly once")
  func serial() async {
    let outcome = await onDedicatedThread { () -> Int in
      var failures = 0
      for _ in 0..<300 * ModelTesting.soak {
        let serial = RACSerialDisposable()
        let swappedOut = Mutex<[RACDisposable]>([])
        let all = Mutex<[RACDisposable]>([])
        race { thread in
          if thread == 0 {
            serial.dispose()
            return
          }
          for _ in 0..<10 {
            let next = RACDisposable()
            all.withCriticalRegion { $0.append(next) }
            if let previous = serial.swapIn(next) { swappedOut.withCriticalRegion { $0.append(previous) } }
          }
        }
        // Swapped-out inners are never disposed by the serial disposable (RAC); every other inner is
        // disposed: the one current at disposal, and every one swapped in afterwards.
        let out = Set(swappedOut.withCriticalRegion { $0 }.map(ObjectIdentifier.init))
        for disposable in all.withCriticalRegion({ $0 }) {
          let isOut = out.contains(ObjectIdentifier(disposable))
          if disposable.isDisposed == isOut { failures += 1 }
        }
      }
      return failures
    }
    #expect(outcome == 0)
  }
}
