import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTesting
import Foundation
import Synchronization

/// Lines collected from scheduled actions.
private final class Lines: Sendable {
  private let lines = Mutex<[String]>([])
  func append(_ line: String) { lines.withCriticalRegion { $0.append(line) } }
  var all: [String] { lines.withCriticalRegion { $0 } }
}

/// RxSwift scheduler code running unchanged on the Rx bridge.
enum RxSnippets {
  static func run() async {
    let lines = Lines()
    // snippet: rx-schedulers
    let background = SerialDispatchQueueScheduler(qos: .userInitiated)
    let bag = DisposeBag()
    background.schedule("hello") { greeting in
      lines.append(greeting)
      return Disposables.create()
    }.disposed(by: bag)
    background.schedulePeriodic(0, startAfter: .milliseconds(5), period: .milliseconds(5)) { tick in
      tick + 1
    }.disposed(by: bag)
    // The same FIFO, for native code: `background` is a native scheduler too (a task executor and a
    // clock), so tasks, sleeps and APIs that take `any Scheduler` take it as it is.
    await Task(executorPreference: background) { lines.append("task") }.value
    try? await Task.sleep(for: .milliseconds(1), clock: background)
    let native: any Scheduler = background
    native.execute { lines.append("native") }
    // end-snippet
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in native.execute { done.resume() } }
    print("  Rx schedulers: \(lines.all)")

    // snippet: rx-virtual-time
    let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 0))
    let fired = Lines()
    _ = scheduler.scheduleRelative("b", dueTime: .seconds(2)) { name in
      fired.append("\(name)@\(scheduler.clock.timeIntervalSince1970)")
      return Disposables.create()
    }
    _ = scheduler.scheduleRelative("a", dueTime: .seconds(1)) { name in
      fired.append("\(name)@\(scheduler.clock.timeIntervalSince1970)")
      return Disposables.create()
    }
    scheduler.advanceTo(Date(timeIntervalSince1970: 1.5))  // runs "a" only
    scheduler.start()  // runs the rest
    assert(fired.all == ["a@1.0", "b@2.0"])
    // end-snippet
    print("  Rx virtual time: \(fired.all)")

    // snippet: rx-observables
    // Seed 004's timer, on a scheduler whose core is a TestScheduler: exact virtual time.
    let test = TestScheduler()
    let timerScheduler = SerialDispatchQueueScheduler(core: test)
    let disposeBag = DisposeBag()
    let ticks = Lines()
    Observable<Int>.timer(.seconds(5), period: .seconds(2), scheduler: timerScheduler)
      .subscribe { event in ticks.append("\(event) at \(test.now.offset)") }
      .disposed(by: disposeBag)
    test.advance(by: .seconds(9))
    assert(ticks.all == ["next(0) at 5.0 seconds", "next(1) at 7.0 seconds", "next(2) at 9.0 seconds"])
    // Operators, subjects and relays with RxSwift's names.
    let query = BehaviorRelay(value: "")
    let results = Lines()
    query.asObservable()
      .filter { !$0.isEmpty }
      .debounce(.milliseconds(300), scheduler: timerScheduler)
      .distinctUntilChanged()
      .flatMapLatest { text in Observable.just("results for \(text)") }
      .subscribe(onNext: { results.append($0) })
      .disposed(by: disposeBag)
    query.accept("sw")
    query.accept("swift")
    test.advance(by: .milliseconds(300))
    assert(results.all == ["results for swift"])
    // end-snippet
    print("  Rx observables: \(ticks.all), \(results.all)")
    _ = seed003(sequence1: .of(1, 2), backgroundScheduler: timerScheduler)
    seed004(disposeBag: DisposeBag())
  }

  /// Seed 003's code, unchanged (cold: nothing runs until someone subscribes).
  static func seed003(sequence1: Observable<Int>, backgroundScheduler: some ImmediateSchedulerType)
    -> Observable<Void>
  {
    sequence1
      .observeOn(backgroundScheduler)
      .map { n in
        print("This is performed on the background scheduler")
      }
      .observeOn(MainScheduler.instance)
      .map { n in
        print("This is performed on the main scheduler")
      }
  }

  /// Seed 004's code, unchanged but for `var timer` made `let` (a warning otherwise); disposed at once
  /// here (the same timer runs on virtual time above).
  static func seed004(disposeBag: DisposeBag) {
    Observable<Int>.timer(.seconds(5), period: .seconds(2), scheduler: MainScheduler.instance)
      .subscribe { event in
        print(event)
      }
      .disposed(by: disposeBag)
    let timer: Observable<Int> = Observable<Int>.interval(.seconds(1), scheduler: MainScheduler.instance)
    timer.subscribe { num in
      print(num)
    }
    .disposed(by: disposeBag)
  }
}
