import AsyncSchedulersTestSupport
import Testing

@testable import AsyncSchedulers

@Suite("SerialDisposable")
struct SerialDisposableTests {
  @Test("replacing the inner disposes the previous one")
  func replaceDisposesPrevious() {
    let first = AnyDisposable()
    let second = AnyDisposable()
    let serial = SerialDisposable(first)
    serial.inner = second
    #expect(first.isDisposed)
    #expect(!second.isDisposed)
    serial.dispose()
    #expect(second.isDisposed)
    #expect(serial.isDisposed)
  }

  @Test("setting an inner after disposal disposes the new one at once")
  func setAfterDispose() {
    let serial = SerialDisposable()
    serial.dispose()
    let late = AnyDisposable()
    serial.inner = late
    #expect(late.isDisposed)
    #expect(serial.inner == nil)
  }
}

@Suite("ScopedDisposable and DisposeBag")
struct ScopedDisposableTests {
  @Test("a scoped disposable disposes its inner when released")
  func scopedDisposesOnRelease() {
    let inner = AnyDisposable()
    do {
      let scoped = inner.scoped()
      #expect(!scoped.isDisposed)
    }
    #expect(inner.isDisposed)
  }

  @Test("a dispose bag disposes everything when released, in insertion order")
  func bag() {
    let log = Log<Int>()
    do {
      let bag = DisposeBag()
      AnyDisposable { log.append(1) }.disposed(by: bag)
      bag.insert(AnyDisposable { log.append(2) })
      #expect(log.values.isEmpty)
    }
    #expect(log.values == [1, 2])
  }
}
