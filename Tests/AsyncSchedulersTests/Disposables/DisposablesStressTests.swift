import AsyncSchedulersTestSupport
import Dispatch
import Synchronization
import Testing

@testable import AsyncSchedulers

/// 8 threads racing on the core disposables, with counters for exactly-once disposal.
@Suite("Disposables under stress")
struct DisposablesStressTests {
  @Test("8 threads replacing and disposing serial disposables: every inner is disposed exactly once")
  func serial() async {
    let outcome = await onDedicatedThread { () -> (inners: Int, disposals: Int, twice: Int) in
      let disposals = Atomic<Int>(0)
      let twice = Atomic<Int>(0)
      var inners = 0
      for _ in 0..<300 * ModelTesting.soak {
        let serial = SerialDisposable()
        race { thread in
          if thread == 0 {
            serial.dispose()
            return
          }
          for _ in 0..<10 {
            let count = Atomic<Int>(0)
            serial.inner = AnyDisposable {
              if count.wrappingAdd(1, ordering: .relaxed).newValue > 1 { twice.wrappingAdd(1, ordering: .relaxed) }
              disposals.wrappingAdd(1, ordering: .relaxed)
            }
          }
        }
        inners += 70
      }
      return (inners, disposals.load(ordering: .relaxed), twice.load(ordering: .relaxed))
    }
    // Each inner is disposed when replaced, when the serial disposable is disposed, or at once when
    // set afterwards: all of them, once.
    #expect(outcome.disposals == outcome.inners)
    #expect(outcome.twice == 0)
  }
}
