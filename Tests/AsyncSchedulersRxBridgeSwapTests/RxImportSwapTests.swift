// Code as a team migrating from RxSwift 6 has it, with `import RxSwift` swapped for the bridge and
// nothing else of this package imported, in Swift 5 mode like most Rx-era code: if a name Rx code uses
// stops being visible through the bridge alone, this target stops compiling.
import AsyncSchedulersRxBridge
import Dispatch
import Foundation
import Testing

/// A disposable written against RxSwift's base class. (`Disposable` is `Sendable` here: Rx-era classes
/// with mutable state declare it `@unchecked Sendable` and guard the state, as this one does with a lock.)
final class TokenDisposable: DisposeBase, Disposable, @unchecked Sendable {
  private let lock = NSLock()
  private var disposals = 0
  var count: Int { lock.withLock { disposals } }
  func dispose() { lock.withLock { disposals += 1 } }
}

/// A poller as Rx-era view models wrote it: a periodic tick on a scheduler, kept in a dispose bag.
final class Poller {
  private(set) var polls: [SerialDispatchQueueScheduler.Time] = []
  let disposeBag = DisposeBag()

  init(scheduler: any SchedulerType, every period: RxTimeInterval) {
    scheduler.schedulePeriodic(0, startAfter: period, period: period) { [weak self] count in
      self?.polls.append(scheduler.now)
      return count + 1
    }
    .disposed(by: disposeBag)
  }
}

@Suite("RxSwift code after swapping the import")
struct RxImportSwapTests {
  @Test("DisposeBag's builder, variadic and array forms, and disposed(by:) dispose everything once")
  func disposeBagForms() {
    let tokens = (0..<6).map { _ in TokenDisposable() }
    do {
      let bag = DisposeBag {
        tokens[0]
        tokens[1]
      }
      bag.insert {
        tokens[2]
      }
      bag.insert(tokens[3], tokens[4])
      tokens[5].disposed(by: bag)
    }
    #expect(tokens.map(\.count) == [1, 1, 1, 1, 1, 1])
  }

  @Test("CompositeDisposable.DisposeKey: remove(for:) disposes the item once, however often it is called")
  func compositeKeys() {
    let composite = CompositeDisposable()
    let first = TokenDisposable()
    let second = TokenDisposable()
    let key: CompositeDisposable.DisposeKey? = composite.insert(first)
    let other = composite.insert(second)
    composite.remove(for: key!)
    composite.remove(for: key!)
    #expect(first.count == 1)
    composite.dispose()
    composite.remove(for: other!)
    #expect(second.count == 1)
    #expect(composite.insert(TokenDisposable()) == nil)
  }

  @Test("Rx's disposables, schedulers and their typealiases are visible through the bridge alone")
  func namesAreVisible() {
    let serial = SerialDisposable()
    serial.disposable = Disposables.create()
    let single = SingleAssignmentDisposable()
    single.setDisposable(BooleanDisposable())
    let interval: SerialDispatchQueueScheduler.TimeInterval = 1.5
    let time: ConcurrentDispatchQueueScheduler.Time = Date(timeIntervalSince1970: interval)
    #expect(time.timeIntervalSince1970 == 1.5)
    let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 0))
    _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in Disposables.create() }
    #expect(scheduler.debugDescription.contains("1 pending"))
    serial.dispose()
    single.dispose()
  }

  @Test("a poller on virtual time ticks on its grid")
  func pollerOnVirtualTime() {
    let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 0))
    let poller = Poller(scheduler: scheduler, every: .seconds(10))
    scheduler.advanceTo(Date(timeIntervalSince1970: 35))
    #expect(poller.polls.map(\.timeIntervalSince1970) == [10, 20, 30])
  }

  @Test("a periodic tick that overruns three periods is followed by one tick, not a catch-up burst")
  func periodicOverrunCoalesces() async {
    let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "swap.periodic")
    let starts = TimesLog()
    let done = DispatchSemaphore(value: 0)
    let scheduled = DispatchTime.now()
    let periodic = scheduler.schedulePeriodic(0, startAfter: .milliseconds(20), period: .milliseconds(20)) { count in
      starts.append(DispatchTime.now())
      // The first run overruns three periods.
      if count == 0 { Thread.sleep(forTimeInterval: 0.07) }
      if count == 3 { done.signal() }
      return count + 1
    }
    // Waited for on a Dispatch thread: a blocking wait must not hold one of the cooperative pool's.
    await withCheckedContinuation { (resumed: CheckedContinuation<Void, Never>) in
      DispatchQueue.global().async {
        _ = done.wait(timeout: .now() + 60)
        resumed.resume()
      }
    }
    periodic.dispose()
    let times = starts.values.map { Double($0.uptimeNanoseconds - scheduled.uptimeNanoseconds) / 1e6 }
    // The first run ends at about 90 ms, past the grid points at 40, 60 and 80 ms: they are coalesced
    // into one run at once; the run after it waits for the next grid point (100 ms). A catch-up burst
    // would start it at about 90 ms. (A loaded machine may make every run late: never early.)
    #expect(times.count >= 4)
    if times.count >= 4 { #expect(times[2] >= 99, "runs at \(times) ms after scheduling") }
  }
}

/// Times, from any thread.
final class TimesLog: @unchecked Sendable {
  // Why @unchecked Sendable: `times` is only touched under `lock`.
  private let lock = NSLock()
  private var times: [DispatchTime] = []
  func append(_ time: DispatchTime) { lock.withLock { times.append(time) } }
  var values: [DispatchTime] { lock.withLock { times } }
}
