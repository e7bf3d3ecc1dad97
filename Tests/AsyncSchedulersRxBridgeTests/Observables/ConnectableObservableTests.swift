import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTestSupport
import Foundation
import Synchronization
import Testing

@Suite("ConnectableObservable: multicast, publish and refCount as RxSwift")
struct ConnectableObservableTests {
  @Test("multicast(makeSubject:) makes a new subject after each connection ends")
  func makeSubjectAgainAfterTheEnd() {
    let made = Mutex(0)
    let source = PublishSubject<Int>()
    let connectable = source.multicast(makeSubject: { () -> PublishSubject<Int> in
      made.withCriticalRegion { $0 += 1 }
      return PublishSubject()
    })
    let first = Recorder<Int>()
    _ = connectable.subscribe(first)
    _ = connectable.connect()
    source.onNext(1)
    source.onCompleted()  // The connection ends: its subject is let go.
    let second = Recorder<Int>()
    _ = connectable.subscribe(second)  // A new subject: not ended.
    #expect(first.trace == ["1", "completed"])
    #expect(second.trace == [])
    #expect(made.withCriticalRegion { $0 } == 2)
  }

  @Test("multicast(_:selector:) shares one subscription of the source among the selector's uses")
  func selectorShares() {
    let subscriptions = Mutex(0)
    let source = Observable<Int>.deferred {
      subscriptions.withCriticalRegion { $0 += 1 }
      return .of(1, 2)
    }
    let zipped = source.multicast(
      { PublishSubject<Int>() }, selector: { shared in Observable.zip(shared, shared.map { $0 * 10 }) { $0 + $1 } })
    #expect(trace(zipped) == ["11", "22", "completed"])
    #expect(subscriptions.withCriticalRegion { $0 } == 1)
  }

  @Test(
    "refCount works on any ConnectableObservableType, connecting with the first observer and disconnecting after the last"
  )
  func refCountOnACustomConnectable() {
    let source = PublishSubject<Int>()
    let counting = CountingConnectable(source.publish())
    let shared = counting.refCount()
    let first = shared.subscribe(onNext: { _ in })
    let second = shared.subscribe(onNext: { _ in })
    #expect(counting.connections == 1)
    first.dispose()
    #expect(counting.disposals == 0)
    second.dispose()
    #expect(counting.disposals == 1)
  }

  @Test("an observer resubscribing from its completion handler does not connect the source again")
  func resubscribingAtTheEndDoesNotReconnect() {
    let subscriptions = Mutex(0)
    let source = Observable<Int>.deferred {
      subscriptions.withCriticalRegion { $0 += 1 }
      return .of(1)
    }
    let shared = source.share(replay: 1, scope: .forever)
    let log = Log()
    let holder = Mutex<(any Disposable)?>(nil)
    _ = shared.subscribe(
      onNext: { log("first \($0)") },
      onCompleted: {
        // The subject has ended: the replay and the end arrive before this handler returns.
        holder.withCriticalRegion {
          $0 = shared.subscribe(onNext: { log("again \($0)") }, onCompleted: { log("again completed") })
        }
        log("first completed")
      })
    #expect(log.values == ["first 1", "again 1", "again completed", "first completed"])
    #expect(subscriptions.withCriticalRegion { $0 } == 1)
  }
}

/// A connectable sequence of the app's own that counts its connections (RxSwift's tests make such).
private final class CountingConnectable: ConnectableObservableType, Sendable {
  typealias Element = Int
  private let base: ConnectableObservable<Int>
  private let counts = Mutex((connections: 0, disposals: 0))

  init(_ base: ConnectableObservable<Int>) { self.base = base }

  var connections: Int { counts.withCriticalRegion { $0.connections } }
  var disposals: Int { counts.withCriticalRegion { $0.disposals } }

  func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable where Observer.Element == Int {
    base.subscribe(observer)
  }

  func connect() -> any Disposable {
    counts.withCriticalRegion { $0.connections += 1 }
    let connection = base.connect()
    return Disposables.create { [self] in
      counts.withCriticalRegion { $0.disposals += 1 }
      connection.dispose()
    }
  }
}

extension ConnectableObservableTests {
  @Test("concurrent first subscriptions to share() connect upstream once, from 16 threads released together")
  func shareConnectsOnceForConcurrentFirstSubscriptions() async {
    // On a thread of its own: the threads' start and join block, and must not hold a cooperative thread.
    let connectionCounts = await onDedicatedThread { () -> [Int] in
      (0..<10).map { _ in
        let connections = Atomic<Int>(0)
        let shared = Observable<Never>.never()
          .do(onSubscribe: { connections.add(1, ordering: .relaxed) })
          .share(replay: 0, scope: .whileConnected)
        let subscriptions = Mutex<[any Disposable]>([])
        let start = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        for _ in 0..<16 {
          done.enter()
          // Threads of their own: Dispatch's global queues here start about one blocked thread a second.
          Thread.detachNewThread {
            start.wait()
            let subscription = shared.subscribe()
            subscriptions.withCriticalRegion { $0.append(subscription) }
            done.leave()
          }
        }
        for _ in 0..<16 { start.signal() }
        done.wait()
        for subscription in subscriptions.withCriticalRegion({ $0 }) { subscription.dispose() }
        return connections.load(ordering: .relaxed)
      }
    }
    #expect(connectionCounts == Array(repeating: 1, count: 10))
  }
}
