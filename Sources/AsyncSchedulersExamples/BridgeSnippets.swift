import AsyncSchedulers
import AsyncSchedulersBridge
import Foundation

// snippet: bridge-step1
// Before: `import ReactiveObjC`. After: `import AsyncSchedulersBridge`; the calls stay as they were.
final class PhotoSync: @unchecked Sendable {  // @unchecked: `scheduler` is a let of a Sendable type
  let scheduler = RACScheduler(priority: .background, name: "photo-sync")

  func start() -> RACDisposable? {
    let compound = RACCompoundDisposable()
    compound.add(scheduler.schedule { print("  sync now") })
    compound.add(scheduler.afterDelay(0.01) { print("  sync again later") })
    compound.add(
      scheduler.after(Date(), repeatingEvery: 60, withLeeway: 1) {  // anchored, no drift
        print("  periodic sync")
      })
    return compound
  }
}
// end-snippet

// snippet: bridge-step2
// Step 2: the same work moves into an actor that lives on the *same* queue, so migrated and unmigrated
// code keep one order while the class is converted piece by piece.
actor PhotoSyncActor {
  let scheduler: SerialScheduler
  nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.unownedSerialExecutor }
  private var synced = 0

  init(sharing legacy: RACScheduler) {
    // The legacy scheduler's core is a SerialScheduler when it was made with RACScheduler(priority:name:).
    scheduler = legacy.core as! SerialScheduler
  }

  func sync() -> Int {
    synced += 1
    return synced
  }

  func syncPeriodically() async {
    for await _ in scheduler.ticks(every: .seconds(60), leeway: .seconds(1)) {
      _ = sync()
    }
  }
}
// end-snippet

enum BridgeSnippets {
  static func run() async {
    let legacy = PhotoSync()
    let disposable = legacy.start()

    // snippet: bridge-api
    let scheduler = RACScheduler()  // +scheduler
    let background = RACScheduler(priority: .low, name: "low")  // +schedulerWithPriority:name:
    let target = RACTargetQueueScheduler(name: "db", targetQueue: .global())  // -initWithName:targetQueue:
    let immediate = RACScheduler.immediate()  // +immediateScheduler
    let main = RACScheduler.mainThread()  // +mainThreadScheduler
    let current = RACScheduler.current()  // +currentScheduler
    let recursion = scheduler.scheduleRecursiveBlock { reschedule in  // -scheduleRecursiveBlock:
      _ = reschedule  // call reschedule() to run again after this block returns
    }
    let core: any Scheduler = scheduler.core  // the core scheduler it wraps: share its queue
    let same = core.racScheduler === scheduler  // and back
    let serial = RACSerialDisposable(disposable: RACDisposable { print("  old inner") })
    let old = serial.swapIn(RACDisposable())  // RAC semantics: the old inner is returned, not disposed
    let scoped = RACDisposable { print("  released") }.asScopedDisposable()
    // end-snippet
    _ = (background, target, immediate, main, current, recursion, same, old, scoped)

    let actor = PhotoSyncActor(sharing: legacy.scheduler)
    let count = await actor.sync()
    try? await legacy.scheduler.core.sleep(for: .milliseconds(30))
    disposable?.dispose()
    print("  actor on the legacy queue synced \(count) time(s)")
  }
}
