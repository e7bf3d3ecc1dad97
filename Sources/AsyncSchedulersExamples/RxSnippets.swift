import AsyncSchedulers
import AsyncSchedulersRxBridge
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
    // The same FIFO, for native code: actors, tasks and signals can run on `background.core`.
    let native: any Scheduler = background.core
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
  }
}
