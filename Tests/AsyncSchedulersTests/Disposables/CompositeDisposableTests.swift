import AsyncSchedulersTestSupport
import Dispatch
import Synchronization
import Testing

@testable import AsyncSchedulers

@Suite("CompositeDisposable")
struct CompositeDisposableTests {
  @Test("disposes every child once, in the order they were added, including inline and overflow ones")
  func disposesChildren() {
    let log = Log<Int>()
    let composite = CompositeDisposable()
    for index in 0..<5 { composite.add { log.append(index) } }
    #expect(composite.count == 5)
    composite.dispose()
    composite.dispose()
    #expect(log.values == [0, 1, 2, 3, 4])
    #expect(composite.isDisposed)
    #expect(composite.count == 0)
  }

  @Test("the handle removes the child without disposing it")
  func handleRemovesWithoutDisposing() {
    let child = AnyDisposable()
    let composite = CompositeDisposable()
    let handle = composite.add(child)
    #expect(!handle.isDisposed)
    handle.dispose()
    #expect(handle.isDisposed)
    composite.dispose()
    #expect(!child.isDisposed)
  }

  @Test("adding to a disposed composite disposes the child at once")
  func addAfterDispose() {
    let composite = CompositeDisposable()
    composite.dispose()
    let child = AnyDisposable()
    composite.add(child)
    #expect(child.isDisposed)
    #expect(composite.count == 0)
  }

  @Test("nil and already-disposed children are ignored")
  func ignoresNilAndDisposed() {
    let disposed = AnyDisposable()
    disposed.dispose()
    let composite = CompositeDisposable([nil, disposed, AnyDisposable()])
    #expect(composite.count == 1)
    composite.add(nil)
    #expect(composite.count == 1)
  }

  @Test("children are disposed outside the lock, so a child may use the composite")
  func reentrantChild() {
    let composite = CompositeDisposable()
    let late = AnyDisposable()
    composite.add {
      _ = composite.count
      composite.add(late)
      composite.dispose()
    }
    composite.dispose()
    #expect(late.isDisposed)
  }

  @Test("8 threads adding, removing and disposing on shared composites for 100,000 operations")
  func stress() async {
    let composites = (0..<4).map { _ in CompositeDisposable() }
    let disposedChildren = Atomic<Int>(0)
    let added = Atomic<Int>(0)
    // Blocking work runs off the cooperative pool, which the other tests' tasks need.
    await onDedicatedThread {
      DispatchQueue.concurrentPerform(iterations: 8) { thread in
        var handles: [CompositeDisposable.Handle] = []
        for index in 0..<12_500 {
          let composite = composites[(thread + index) % composites.count]
          switch index % 5 {
          case 0, 1, 2:
            added.wrappingAdd(1, ordering: .relaxed)
            handles.append(composite.add { disposedChildren.wrappingAdd(1, ordering: .relaxed) })
          case 3:
            handles.popLast()?.dispose()
          default:
            _ = composite.count
            if index % 2_500 == 4 { composite.dispose() }
          }
        }
      }
    }
    for composite in composites { composite.dispose() }
    #expect(composites.allSatisfy { $0.isDisposed && $0.count == 0 })
    #expect(disposedChildren.load(ordering: .relaxed) <= added.load(ordering: .relaxed))
  }
}
