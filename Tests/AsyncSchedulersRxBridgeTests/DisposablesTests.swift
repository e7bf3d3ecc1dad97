import AsyncSchedulers
import AsyncSchedulersRxBridge
import Foundation
import Testing

@Suite("Rx disposables")
struct RxDisposablesTests {
  @Test("Disposables.create: a no-op, a closure run once, and groups disposed in order")
  func create() {
    let log = Log()
    Disposables.create().dispose()
    let once = Disposables.create { log("closure") }
    once.dispose()
    once.dispose()
    #expect(once.isDisposed)
    let pair = Disposables.create(Disposables.create { log("1") }, Disposables.create { log("2") })
    pair.dispose()
    Disposables.create(
      Disposables.create { log("a") }, Disposables.create { log("b") }, Disposables.create { log("c") },
      Disposables.create { log("d") }
    ).dispose()
    Disposables.create([Disposables.create { log("x") }]).dispose()
    #expect(log.values == ["closure", "1", "2", "a", "b", "c", "d", "x"])
  }

  @Test("BooleanDisposable records its disposal")
  func boolean() {
    let disposable = BooleanDisposable()
    #expect(!disposable.isDisposed)
    disposable.dispose()
    #expect(disposable.isDisposed)
    #expect(BooleanDisposable(isDisposed: true).isDisposed)
  }

  @Test("SingleAssignmentDisposable disposes its inner one, also one set after the disposal")
  func singleAssignment() {
    let first = SingleAssignmentDisposable()
    let inner = BooleanDisposable()
    first.setDisposable(inner)
    first.dispose()
    #expect(inner.isDisposed)
    let late = SingleAssignmentDisposable()
    late.dispose()
    let lateInner = BooleanDisposable()
    late.setDisposable(lateInner)
    #expect(lateInner.isDisposed)
  }

  @Test("a second assignment to a SingleAssignmentDisposable stops the program with a message")
  func secondAssignment() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let disposable = SingleAssignmentDisposable()
      disposable.setDisposable(BooleanDisposable())
      disposable.setDisposable(BooleanDisposable())
    }
    #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("setDisposable called a second time"))
  }

  @Test("RefCountDisposable disposes the underlying one when the primary and every retain are disposed")
  func refCount() {
    let underlying = BooleanDisposable()
    let refCount = RefCountDisposable(disposable: underlying)
    let first = refCount.retain()
    let second = refCount.retain()
    refCount.dispose()
    first.dispose()
    #expect(!underlying.isDisposed)
    second.dispose()
    #expect(underlying.isDisposed)
    #expect(refCount.isDisposed)
    refCount.retain().dispose()
  }

  @Test("ScheduledDisposable disposes its inner disposable on its scheduler")
  func scheduled() {
    let scheduler = HistoricalScheduler()
    let inner = BooleanDisposable()
    let disposable = ScheduledDisposable(scheduler: scheduler, disposable: inner)
    disposable.dispose()
    #expect(disposable.isDisposed)
    #expect(!inner.isDisposed)
    scheduler.start()
    #expect(inner.isDisposed)
  }

  @Test("CompositeDisposable: insert gives a key, remove(for:) removes and disposes, insert after disposal gives nil")
  func composite() {
    let composite = CompositeDisposable(BooleanDisposable(), BooleanDisposable())
    let inserted = BooleanDisposable()
    let key = composite.insert(inserted)
    #expect(composite.count == 3)
    if let key { composite.remove(for: key) } else { Issue.record("no key") }
    #expect(inserted.isDisposed)
    #expect(composite.count == 2)
    composite.dispose()
    let late = BooleanDisposable()
    #expect(composite.insert(late) == nil ? true : false)
    #expect(late.isDisposed)
  }

  @Test("SerialDisposable.disposable replaces and disposes the previous one")
  func serial() {
    let serial = SerialDisposable()
    let first = BooleanDisposable()
    serial.disposable = first
    serial.disposable = BooleanDisposable()
    #expect(first.isDisposed)
    serial.dispose()
    #expect(serial.disposable.isDisposed == false)  // a no-op stands in once it is gone
  }

  @Test("DisposeBag takes disposables at creation, in groups and by disposed(by:), and disposes them when released")
  func bag() {
    let disposables = (0..<6).map { _ in BooleanDisposable() }
    do {
      let bag = DisposeBag(disposing: disposables[0], disposables[1])
      bag.insert(disposables[2], disposables[3])
      bag.insert([disposables[4]])
      disposables[5].disposed(by: bag)
      #expect(disposables.allSatisfy { !$0.isDisposed })
    }
    #expect(disposables.allSatisfy { $0.isDisposed })
  }

  @Test("a disposable written for RxSwift (dispose only) conforms and reads as not disposed")
  func rxStyleDisposable() {
    final class OnlyDispose: Disposable {
      let log: Log
      init(_ log: Log) { self.log = log }
      func dispose() { log("disposed") }
    }
    let log = Log()
    let bag = CompositeDisposable()
    bag.add(OnlyDispose(log))
    #expect(!OnlyDispose(log).isDisposed)
    bag.dispose()
    #expect(log.values == ["disposed"])
  }
}
