import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Foundation
import Synchronization
import Testing

/// `window(timeSpan:count:scheduler:)` on a `SerialDispatchQueueScheduler` whose core is a
/// `TestScheduler` (exact), and on real threads (order kept when timers and values race).
@Suite("Observable.window")
struct ObservableWindowTests {
  let test = TestScheduler()
  var rx: SerialDispatchQueueScheduler { SerialDispatchQueueScheduler(core: test) }

  /// Subscribes to each window as it opens; records `"w<index> open@ms"`, `"w<index>:<value>@ms"`,
  /// `"w<index> completed@ms"`, `"w<index> error@ms"`, and the outer sequence's end.
  final class WindowLog: Sendable {
    let lines = Mutex<[String]>([])
    let windows = Mutex(0)
    let clock: TestScheduler
    let bag = DisposeBag()

    init(clock: TestScheduler) { self.clock = clock }

    private var now: Int { Int((clock.now.offset / .milliseconds(1)).rounded()) }

    func record(_ line: String) { lines.withCriticalRegion { $0.append("\(line)@\(now)") } }

    func observe(_ windows: Observable<Observable<Int>>) -> any Disposable {
      windows.subscribe(
        onNext: { window in
          let index = self.windows.withCriticalRegion { count -> Int in
            defer { count += 1 }
            return count
          }
          self.record("w\(index) open")
          window.subscribe(
            onNext: { self.record("w\(index):\($0)") }, onError: { _ in self.record("w\(index) error") },
            onCompleted: { self.record("w\(index) completed") }
          ).disposed(by: self.bag)
        },
        onError: { _ in self.record("error") }, onCompleted: { self.record("completed") })
    }

    var trace: [String] { lines.withCriticalRegion { $0 } }
  }

  @Test("a window closes after its time span or its count-th value, and the next opens at once")
  func closesByTimeOrCount() {
    let subject = PublishSubject<Int>()
    let log = WindowLog(clock: test)
    let subscription = log.observe(subject.window(timeSpan: .milliseconds(100), count: 2, scheduler: rx))
    subject.onNext(1)
    subject.onNext(2)
    subject.onNext(3)
    test.advance(by: .milliseconds(150))
    subject.onNext(4)
    test.advance(by: .milliseconds(100))
    subject.onCompleted()
    #expect(
      log.trace == [
        "w0 open@0", "w0:1@0", "w0:2@0", "w0 completed@0", "w1 open@0", "w1:3@0",
        "w1 completed@100", "w2 open@100", "w2:4@150", "w2 completed@200", "w3 open@200",
        "w3 completed@250", "completed@250",
      ])
    subscription.dispose()
  }

  @Test("a failure fails the open window, then the sequence of windows")
  func failureFailsBoth() {
    let subject = PublishSubject<Int>()
    let log = WindowLog(clock: test)
    _ = log.observe(subject.window(timeSpan: .seconds(1), count: 10, scheduler: rx))
    subject.onNext(1)
    subject.onError(TestError())
    test.advance(by: .seconds(5))
    #expect(log.trace == ["w0 open@0", "w0:1@0", "w0 error@0", "error@0"])
  }

  @Test("disposing the subscription keeps the upstream while a window has subscribers, and ends it after")
  func windowsKeepTheUpstream() {
    let subscriptions = Mutex(0)
    let disposals = Mutex(0)
    let subject = PublishSubject<Int>()
    let source = Observable<Int>.create { observer in
      subscriptions.withCriticalRegion { $0 += 1 }
      let inner = subject.subscribe(observer)
      return Disposables.create {
        inner.dispose()
        disposals.withCriticalRegion { $0 += 1 }
      }
    }
    let received = Recorder<Int>()
    let window = Mutex<Observable<Int>?>(nil)
    let outer = source.window(timeSpan: .seconds(10), count: 100, scheduler: rx).subscribe(onNext: { opened in
      window.withCriticalRegion { $0 = $0 ?? opened }
    })
    let inner = window.withCriticalRegion { $0 }!.subscribe(received)
    outer.dispose()
    subject.onNext(7)
    #expect(received.trace == ["7"])
    #expect(disposals.withCriticalRegion { $0 } == 0)
    inner.dispose()
    #expect(disposals.withCriticalRegion { $0 } == 1)
    #expect(subscriptions.withCriticalRegion { $0 } == 1)
    #expect(test.pendingCount == 0, "the window timer stops with the subscription")
  }

  @Test(
    "with timers racing values on real threads, every value reaches its window once, in order, and the timer survives"
  )
  func racingTimersKeepOrder() async {
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "window-race")
    let subject = PublishSubject<Int>()
    let seen = Mutex<[[Int]]>([])
    // Windows opened after the producer stopped: only a live window timer opens them.
    let producing = Atomic<Bool>(true)
    let openedByTime = Latch(count: 3)
    let finished = Latch()
    // Under ThreadSanitizer a window costs a hundred times more: at 200 µs the timer's new windows took
    // both cores from the producer, and the sanitized suite stalled behind them for minutes.
    let timeSpan: RxTimeInterval = isThreadSanitized ? .milliseconds(5) : .microseconds(200)
    let subscription = subject.window(timeSpan: timeSpan, count: 7, scheduler: scheduler).subscribe(
      onNext: { window in
        let index = seen.withCriticalRegion { windows -> Int in
          windows.append([])
          return windows.count - 1
        }
        _ = window.subscribe(onNext: { value in seen.withCriticalRegion { $0[index].append(value) } })
        if !producing.load(ordering: .acquiring) { openedByTime.signal() }
      },
      onCompleted: { finished.signal() })
    let produced = Latch()
    let producer = Thread {
      for value in 0..<5_000 { subject.onNext(value) }
      producing.store(false, ordering: .releasing)
      produced.signal()
    }
    producer.start()
    #expect(await produced.wait())
    // A timer replaced by a stale window's would leave the last window open for good.
    #expect(await openedByTime.wait(timeout: .seconds(60)), "the window timer stopped during the race")
    subject.onCompleted()
    #expect(await finished.wait())
    subscription.dispose()
    let windows = seen.withCriticalRegion { $0 }
    #expect(windows.joined().elementsEqual(0..<5_000))
    #expect(windows.allSatisfy { $0.count <= 7 })
    #expect(windows.count >= 5_000 / 7)
  }
}
