import AsyncSchedulersTestSupport
import Synchronization
import Testing

@testable import AsyncSchedulers

@Suite("Disposable")
struct DisposableTests {
  /// A disposable as RxSwift code writes one: only `dispose()`.
  final class DisposeOnly: Disposable {
    let disposals = Atomic<Int>(0)
    func dispose() { disposals.wrappingAdd(1, ordering: .relaxed) }
  }

  @Test("a type with only dispose() is a Disposable that reads as not disposed, without any bridge imported")
  func disposeOnlyConforms() {
    let disposable = DisposeOnly()
    #expect(!disposable.isDisposed)
    disposable.dispose()
    #expect(!disposable.isDisposed)
    #expect(disposable.disposals.load(ordering: .relaxed) == 1)
  }

  @Test("a composite keeps a disposable that does not track disposal and disposes it once")
  func compositeKeepsUntrackedDisposables() {
    let untracked = DisposeOnly()
    let composite = CompositeDisposable()
    _ = composite.add(untracked)
    composite.dispose()
    composite.dispose()
    #expect(untracked.disposals.load(ordering: .relaxed) == 1)
  }
}
