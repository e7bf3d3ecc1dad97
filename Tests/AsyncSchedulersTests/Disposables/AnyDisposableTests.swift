import AsyncSchedulersTestSupport
import Dispatch
import Synchronization
import Testing

@testable import AsyncSchedulers

@Suite("AnyDisposable")
struct AnyDisposableTests {
  @Test("runs its action exactly once, on the first dispose")
  func once() {
    let count = Atomic<Int>(0)
    let disposable = AnyDisposable { count.wrappingAdd(1, ordering: .relaxed) }
    #expect(!disposable.isDisposed)
    disposable.dispose()
    disposable.dispose()
    #expect(disposable.isDisposed)
    #expect(count.load(ordering: .relaxed) == 1)
  }

  @Test("dispose racing from 8 threads runs the action once", arguments: 0..<20)
  func race(round: Int) {
    let count = Atomic<Int>(0)
    let disposable = AnyDisposable { count.wrappingAdd(1, ordering: .relaxed) }
    DispatchQueue.concurrentPerform(iterations: 8) { _ in disposable.dispose() }
    #expect(count.load(ordering: .relaxed) == 1)
  }

  @Test("a re-entrant dispose from inside the action returns at once")
  func reentrant() {
    let count = Atomic<Int>(0)
    let box = Log<AnyDisposable>()
    let disposable = AnyDisposable {
      count.wrappingAdd(1, ordering: .relaxed)
      box.values.first?.dispose()
    }
    box.append(disposable)
    disposable.dispose()
    #expect(count.load(ordering: .relaxed) == 1)
  }

  @Test("releases its action and captures once it has run, and is not disposed when released")
  func releasesAction() {
    let counter = LifetimeCounter()
    let ran = Atomic<Int>(0)
    var disposable: AnyDisposable? = {
      let token = counter.make()
      return AnyDisposable {
        _ = token
        ran.wrappingAdd(1, ordering: .relaxed)
      }
    }()
    #expect(counter.count == 1)
    disposable?.dispose()
    #expect(counter.count == 0)
    disposable = nil
    let notDisposedOnRelease = AnyDisposable { ran.wrappingAdd(1, ordering: .relaxed) }
    _ = notDisposedOnRelease
    #expect(ran.load(ordering: .relaxed) == 1)
  }
}
