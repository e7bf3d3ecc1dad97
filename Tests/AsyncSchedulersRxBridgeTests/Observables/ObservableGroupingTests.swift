import AsyncSchedulers
import AsyncSchedulersRxBridge
import Synchronization
import Testing

@Suite("Observable.groupBy, as RxSwift")
struct ObservableGroupingTests {
  @Test("each key's first value sends a group, then its values reach that group; the end reaches all")
  func groupsByKey() {
    let source = PublishSubject<Int>()
    let keys = Log()
    let values = Log()
    _ = source.groupBy { $0 % 2 }.subscribe(onNext: { group in
      keys("\(group.key)")
      _ = group.subscribe(onNext: { values("\(group.key):\($0)") }, onCompleted: { values("\(group.key) completed") })
    })
    for value in [1, 2, 3, 4] { source.onNext(value) }
    source.onCompleted()
    #expect(keys.values == ["1", "0"])
    #expect(values.values == ["1:1", "0:2", "1:3", "0:4", "1 completed", "0 completed"])
  }

  @Test("a subscribed group keeps the source subscribed after the outer subscription is disposed")
  func groupsKeepTheSourceAlive() {
    let disposed = Log()
    let source = PublishSubject<Int>()
    let values = Log()
    let groupSubscription = SerialDisposable()
    let outer = source.do(onDispose: { disposed("source") }).groupBy { _ in "all" }.subscribe(onNext: { group in
      groupSubscription.disposable = group.subscribe(onNext: { values("\($0)") })
    })
    source.onNext(1)
    outer.dispose()
    source.onNext(2)
    #expect(values.values == ["1", "2"])
    #expect(disposed.values == [])
    groupSubscription.dispose()
    #expect(disposed.values == ["source"])
  }

  @Test("a throw of the key selector fails every group and the outer sequence")
  func keySelectorThrows() {
    let source = PublishSubject<Int>()
    let events = Log()
    _ = source.groupBy { value -> Int in
      if value > 1 { throw RxError.overflow }
      return value
    }.subscribe(
      onNext: { group in _ = group.subscribe(onError: { events("group \(group.key): \($0)") }) },
      onError: { events("outer: \($0)") })
    source.onNext(1)
    source.onNext(2)
    #expect(events.values == ["group 1: \(RxError.overflow)", "outer: \(RxError.overflow)"])
  }
}
