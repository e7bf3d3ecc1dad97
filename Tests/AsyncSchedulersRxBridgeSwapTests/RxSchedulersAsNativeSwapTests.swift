// Mid-migration code: a feature rewritten natively (it takes `any Scheduler` and sleeps on its clock),
// still given RxSwift's schedulers by the app and RxTest's scheduler by its tests, with `import RxSwift`
// and `import RxTest` swapped for the bridge and its testing module, in Swift 5 mode.
import AsyncSchedulersRxBridge
import AsyncSchedulersRxBridgeTesting
import Foundation
import Testing

/// An autosave feature written against the native API: each edit restarts a two-second timer; the save
/// runs on the scheduler it was given.
private final class Autosaver: @unchecked Sendable {
  // Why @unchecked Sendable: `saves` and `pending` are guarded by `lock`.
  private let scheduler: any Scheduler
  private let lock = NSLock()
  private var pending: ScheduledAction?
  private var saves: [String] = []

  init(scheduler: any Scheduler) { self.scheduler = scheduler }

  var saved: [String] { lock.withLock { saves } }

  func edit(_ text: String, record: @escaping @Sendable () -> String) {
    let save = scheduler.schedule(after: .seconds(2)) { [weak self] in
      guard let self else { return }
      let stamp = record()
      self.lock.withLock { self.saves.append("\(text)@\(stamp)") }
    }
    lock.withLock {
      pending?.dispose()
      pending = save
    }
  }
}

@Suite("Rx schedulers where native code expects a Scheduler, after swapping the import")
struct RxSchedulersAsNativeSwapTests {
  @Test("The app gives MainScheduler.instance to a feature that takes any Scheduler, with no .core")
  func appGivesMainScheduler() {
    let autosaver = Autosaver(scheduler: MainScheduler.instance)
    #expect(autosaver.saved.isEmpty)
    let now: Date = MainScheduler.instance.now
    #expect(now.timeIntervalSinceNow < 1, "Rx code still reads a Date")
  }

  @Test("RxTest's TestScheduler drives a native feature: saves at its ticks, a restarted timer never fires")
  func rxTestSchedulerDrivesNativeFeature() {
    let scheduler = TestScheduler(initialClock: 0)
    let autosaver = Autosaver(scheduler: scheduler)
    scheduler.scheduleAt(100) { autosaver.edit("a") { "\(scheduler.clock)" } }
    scheduler.scheduleAt(101) { autosaver.edit("ab") { "\(scheduler.clock)" } }
    scheduler.scheduleAt(200) { autosaver.edit("abc") { "\(scheduler.clock)" } }
    scheduler.start()
    #expect(autosaver.saved == ["ab@103", "abc@202"])
  }

  @Test("A task preferring RxTest's TestScheduler sleeps on its clock, resumed when the test advances it")
  func taskSleepsOnRxTestScheduler() async throws {
    let scheduler = TestScheduler(initialClock: 0)
    let task = Task(executorPreference: scheduler) { () -> Int in
      try await Task.sleep(for: .seconds(5), clock: scheduler)
      return scheduler.clock
    }
    scheduler.advanceTo(4)
    scheduler.advanceTo(10)
    #expect(try await task.value == 5)
  }
}
