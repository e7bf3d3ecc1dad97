import AsyncSchedulers
import AsyncSchedulersTesting
import Dispatch

enum MigrationSnippets {
  static func run() async {
    factories()
    await scheduling()
    disposables()
    testing()
  }

  static func factories() {
    // snippet: migration-factories
    let background = SerialScheduler(name: "com.example.sync", priority: .background)  // +schedulerWithPriority:name:
    let onQueue = SerialScheduler(name: "db", targetQueue: DispatchQueue.global())  // RACTargetQueueScheduler
    let main = MainActorScheduler.shared  // +mainThreadScheduler, MainScheduler.asyncInstance
    let ui = MainActorScheduler(runsInlineWhenIdle: true)  // MainScheduler.instance, but per instance
    let immediate = ImmediateScheduler.shared  // +immediateScheduler
    let trampoline = TrampolineScheduler.shared  // CurrentThreadScheduler.instance
    let pool = ConcurrentScheduler(maxConcurrentJobs: 4)  // ConcurrentDispatchQueueScheduler, OperationQueueScheduler
    let current: (any Scheduler)? = Schedulers.current  // +currentScheduler
    // end-snippet
    _ = (background, onQueue, main, ui, immediate, trampoline, pool, current)
  }

  static func scheduling() async {
    let scheduler = SerialScheduler(name: "migration")
    // snippet: migration-scheduling
    let job = scheduler.schedule { print("  schedule:") }  // -schedule:, returns a disposable handle
    scheduler.execute { print("  fire and forget") }  // no handle: the cheapest path
    let later = scheduler.schedule(after: .milliseconds(5)) { print("  afterDelay:schedule:") }
    scheduler.execute(after: .milliseconds(5)) { print("  asyncAfter: no handle") }
    let repeating = scheduler.scheduleRepeating(  // after:repeatingEvery:withLeeway:schedule:
      startingAt: scheduler.now.advanced(by: .milliseconds(10)), every: .milliseconds(10), leeway: .milliseconds(1)
    ) { print("  tick") }
    // The async way: no handle at all; cancelling the task stops it.
    let ticker = Task(executorPreference: scheduler) {
      for await _ in scheduler.ticks(every: .milliseconds(10)) { break }
    }
    // end-snippet
    try? await scheduler.sleep(for: .milliseconds(25))
    repeating.dispose()
    _ = (job, later)
    await ticker.value
  }

  static func disposables() {
    // snippet: migration-disposables
    let compound = CompositeDisposable()  // RACCompoundDisposable, Rx CompositeDisposable
    let handle = compound.add(AnyDisposable { print("  disposed") })  // -addDisposable:
    handle.dispose()  // -removeDisposable: (removes without disposing, unlike Rx remove(for:))
    let serial = SerialDisposable()  // RACSerialDisposable, Rx SerialDisposable
    serial.inner = AnyDisposable()  // replacing disposes the previous inner (RAC's swapIn does not)
    let scoped = AnyDisposable { print("  scoped disposed") }.scoped()  // -asScopedDisposable
    let bag = DisposeBag()  // Rx DisposeBag
    serial.disposed(by: bag)
    // end-snippet
    compound.dispose()
    _ = scoped
  }

  static func testing() {
    // snippet: migration-testing
    let scheduler = TestScheduler()  // RACTestScheduler, Rx VirtualTimeScheduler / TestScheduler, TestClock
    let recorder = TestRecorder<String>(scheduler: scheduler)
    scheduler.schedule { recorder.record("now") }  // RAC: plain blocks run before any dated block
    scheduler.schedule(after: .seconds(2)) { recorder.record("later") }
    scheduler.step()  // -step
    scheduler.advance(by: .seconds(2))  // Rx advanceTo / swift-clocks advance(by:), no mega-yield
    scheduler.stepAll()  // -stepAll, Rx start()
    scheduler.expectNoPendingWork()  // swift-clocks checkSuspension()
    // end-snippet
    print("  test timeline: \(recorder.timeline())")
  }
}
