import AsyncSchedulers
import AsyncSchedulersBridge
import Synchronization
import Testing

@Suite("RAC disposables")
struct RACDisposableTests {
  @Test("a RACDisposable runs its block once, and is not disposed when released")
  func plain() {
    let count = Atomic<Int>(0)
    let disposable = RACDisposable { count.wrappingAdd(1, ordering: .relaxed) }
    disposable.dispose()
    disposable.dispose()
    #expect(disposable.isDisposed && count.load(ordering: .relaxed) == 1)
    do { _ = RACDisposable { count.wrappingAdd(1, ordering: .relaxed) } }
    #expect(count.load(ordering: .relaxed) == 1)
    #expect(!RACDisposable().isDisposed)
  }

  @Test("a scoped disposable disposes its inner when released")
  func scoped() {
    let inner = RACDisposable()
    do { _ = inner.asScopedDisposable() }
    #expect(inner.isDisposed)
    let other = RACDisposable()
    do { _ = RACScopedDisposable(disposable: other) }
    #expect(other.isDisposed)
  }

  @Test("a compound disposes its children; remove does not dispose; adding to a disposed compound disposes the child")
  func compound() {
    let a = RACDisposable()
    let b = RACDisposable()
    let compound = RACCompoundDisposable(disposables: [a, b])
    compound.remove(b)
    #expect(!b.isDisposed)
    compound.add(nil)
    compound.dispose()
    #expect(a.isDisposed && !b.isDisposed && compound.isDisposed)
    let late = RACDisposable()
    compound.add(late)
    #expect(late.isDisposed)
  }

  @Test("swapIn does not dispose the old inner and returns it; after disposal it disposes the new one")
  func serial() {
    let first = RACDisposable()
    let serial = RACSerialDisposable(disposable: first)
    let second = RACDisposable()
    let previous = serial.swapIn(second)
    #expect(previous === first && !first.isDisposed)
    serial.disposable = RACDisposable()
    #expect(!second.isDisposed)
    serial.dispose()
    #expect(serial.disposable == nil)
    let third = RACDisposable()
    #expect(serial.swapIn(third) == nil)
    #expect(third.isDisposed)
  }

  @Test("RAC disposables interoperate with the core: they are Disposables, and wrap them")
  func interop() {
    let core = AnyDisposable()
    let wrapped = RACDisposable(core)
    let composite = CompositeDisposable()
    composite.add(wrapped)
    composite.dispose()
    #expect(wrapped.isDisposed && core.isDisposed)
  }
}
