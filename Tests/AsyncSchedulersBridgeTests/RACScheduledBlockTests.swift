import AsyncSchedulers
import AsyncSchedulersBridge
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Dispatch
import Synchronization
import Testing

@Suite("RAC scheduled blocks")
struct RACScheduledBlockTests {
  @Test("a block disposed after its worker took it still runs once, and is released once")
  func disposeAfterTake() async {
    let scheduler = TestScheduler()
    let rac = RACScheduler(core: scheduler)
    let counter = LifetimeCounter()
    let runs = Atomic<Int>(0)
    let disposable = Mutex<RACDisposable?>(nil)
    do {
      let token = counter.make()
      // The block disposes its own disposable while it runs: the phase is `ran` then.
      disposable.withCriticalRegion {
        $0 = rac.schedule {
          withExtendedLifetime(token) {
            runs.wrappingAdd(1, ordering: .relaxed)
            disposable.withCriticalRegion { $0 }?.dispose()
          }
        }
      }
    }
    scheduler.run()
    #expect(runs.load(ordering: .relaxed) == 1)
    #expect(disposable.withCriticalRegion { $0 }?.isDisposed == true)
    disposable.withCriticalRegion { $0 = nil }
    #expect(counter.count == 0)
  }
}

@Suite("RAC scheduled blocks under stress")
struct RACScheduledBlockStressTests {
  @Test(
    "disposing blocks from 8 threads just as their worker starts them: each runs at most once, every capture is released once"
  )
  func disposeRacesStart() async {
    let outcome = await onDedicatedThread { () -> (runs: Int, live: Int, blocks: Int) in
      let scheduler = RACScheduler(priority: .default, name: "race.dispose-at-start")
      let counter = LifetimeCounter()
      let runs = Atomic<Int>(0)
      let rounds = 500 * ModelTesting.soak
      let perRound = 8
      for _ in 0..<rounds {
        var disposables: [RACDisposable] = []
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<perRound {
          let token = counter.make()
          disposables.append(
            scheduler.schedule {
              withExtendedLifetime(token) { _ = runs.wrappingAdd(1, ordering: .relaxed) }
            }!)
        }
        // Mark the end of the round on the same queue, so the round is over when it runs.
        scheduler.schedule { finished.signal() }
        let toDispose = disposables
        race(threads: perRound) { thread in toDispose[thread].dispose() }
        finished.wait()
      }
      return (runs.load(ordering: .relaxed), counter.count, rounds * perRound)
    }
    #expect(outcome.runs <= outcome.blocks)
    #expect(outcome.live == 0, "every block and its captures released exactly once")
  }
}
