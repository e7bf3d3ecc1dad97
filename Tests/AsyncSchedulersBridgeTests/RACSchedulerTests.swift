import AsyncSchedulers
import AsyncSchedulersBridge
import AsyncSchedulersBridgeTesting
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Dispatch
import Foundation
import Synchronization
import Testing

actor BridgedActor {
  let scheduler: SerialScheduler
  nonisolated var unownedExecutor: UnownedSerialExecutor { scheduler.unownedSerialExecutor }
  init(scheduler: SerialScheduler) { self.scheduler = scheduler }
  func currentName() -> String? { RACScheduler.current()?.name }
}

@Suite("RACScheduler")
struct RACSchedulerTests {
  @Test("every RAC scheduler is serial, also a target-queue scheduler over a concurrent queue")
  func serial() async {
    for scheduler in [
      RACScheduler(), RACScheduler(priority: .high, name: "named"),
      RACTargetQueueScheduler(name: nil, targetQueue: .global()),
    ] {
      let running = Atomic<Int>(0)
      let overlaps = Atomic<Int>(0)
      let order = Log<Int>()
      let done = Latch(count: 2_000)
      for index in 0..<2_000 {
        scheduler.schedule {
          if running.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue != 1 {
            overlaps.wrappingAdd(1, ordering: .relaxed)
          }
          order.append(index)
          running.wrappingSubtract(1, ordering: .acquiringAndReleasing)
          done.signal()
        }
      }
      #expect(await done.wait())
      #expect(overlaps.load(ordering: .relaxed) == 0)
      #expect(order.values == Array(0..<2_000))
    }
  }

  @Test("names and priorities follow RAC")
  func names() {
    #expect(RACScheduler().name == RACScheduler.defaultName)
    #expect(RACScheduler(priority: .low, name: "x").name == "x")
    #expect(RACScheduler(priority: .background).name == RACScheduler.defaultName)
    #expect(RACSchedulerPriority.high.schedulerPriority == .high)
  }

  @Test("a block disposed before it starts never runs")
  func disposeBeforeStart() {
    let scheduler = RACTestScheduler()
    let log = Log<String>()
    let disposable = scheduler.schedule { log.append("ran") }
    disposable?.dispose()
    #expect(disposable?.isDisposed == true)
    scheduler.stepAll()
    #expect(log.values.isEmpty)
  }

  @Test("the immediate scheduler runs blocks inline and returns nil")
  func immediate() {
    let log = Log<Int>()
    let disposable = RACScheduler.immediate().schedule { log.append(1) }
    log.append(2)
    #expect(disposable == nil)
    #expect(log.values == [1, 2])
  }

  @Test("the immediate scheduler's after: blocks the caller until the date")
  func immediateAfterBlocks() {
    let date = Date(timeIntervalSinceNow: 0.02)
    let log = Log<Bool>()
    let disposable = RACScheduler.immediate().after(date) { log.append(Date() >= date) }
    #expect(disposable == nil)
    #expect(log.values == [true])
  }

  @Test("the immediate scheduler's repeating form is a precondition failure")
  func immediateRepeating() async {
    await #expect(processExitsWith: .failure) {
      _ = RACScheduler.immediate().after(Date(), repeatingEvery: 1, withLeeway: 0) {}
    }
  }

  @Test("current() is the scheduler running the block, restored afterwards; immediate inherits it")
  func current() async {
    let scheduler = RACScheduler()
    let other = RACScheduler()
    let seen = Log<String>()
    let seenOnOther = Log<String>()
    let done = Latch(count: 2)
    scheduler.schedule {
      seen.append(RACScheduler.current() === scheduler ? "scheduler" : "other")
      RACScheduler.immediate().schedule {
        seen.append(RACScheduler.current() === scheduler ? "inherited" : "not inherited")
      }
      // `other` runs on its own thread, at the same time as the rest of this block: its trace is apart.
      other.schedule {
        seenOnOther.append(RACScheduler.current() === other ? "other" : "wrong")
        done.signal()
      }
      seen.append(RACScheduler.current() === scheduler ? "restored" : "not restored")
      done.signal()
    }
    #expect(await done.wait())
    #expect(seen.values == ["scheduler", "inherited", "restored"])
    #expect(seenOnOther.values == ["other"])
    #expect(RACScheduler.current() == nil)
  }

  @Test("two wrappers of one core: current() inside each one's blocks is that wrapper, on every kind of core")
  func twoWrappersOfOneCore() async {
    let cores: [any Scheduler] = [
      ConcurrentScheduler(name: "shared concurrent core", maxConcurrentJobs: 4),
      SerialScheduler(name: "shared serial core"),
    ]
    for core in cores {
      let first = RACScheduler(core: core, name: "A")
      let second = RACScheduler(core: core, name: "B")
      let seen = Log<String>()
      let done = Latch(count: 6)
      for wrapper in [first, second] {
        wrapper.schedule {
          seen.append("\(wrapper.name) schedule: \(RACScheduler.current()?.name ?? "nil")")
          done.signal()
        }
        wrapper.afterDelay(0.001) {
          seen.append("\(wrapper.name) afterDelay: \(RACScheduler.current()?.name ?? "nil")")
          done.signal()
        }
        let repeating = RACSerialDisposable()
        repeating.disposable = wrapper.after(Date(), repeatingEvery: 0.001, withLeeway: 0) {
          guard !repeating.isDisposed else { return }
          repeating.dispose()
          seen.append("\(wrapper.name) repeating: \(RACScheduler.current()?.name ?? "nil")")
          done.signal()
        }
      }
      #expect(await done.wait())
      let wrong = seen.values.filter { line in line.first != line.last }
      #expect(wrong.isEmpty, "\(core.name): \(wrong)")
    }
  }

  @Test("current() answers inside an actor method and a task running on a bridged scheduler's core")
  func currentInAsyncCode() async {
    let core = SerialScheduler(name: "core")
    let rac = RACScheduler(core: core, name: "bridged")
    #expect(await BridgedActor(scheduler: core).currentName() == "bridged")
    let inTask = await Task(executorPreference: core) { RACScheduler.current() === rac }.value
    #expect(inTask)
    #expect(core.racScheduler === rac)
    #expect(rac.core === core)
  }

  @Test("on the main thread outside any block current() is mainThread()")
  @MainActor
  func currentOnMain() {
    #expect(RACScheduler.current() === RACScheduler.mainThread())
  }

  @Test("mainThread() runs blocks on the main actor, asynchronously, as current")
  @MainActor
  func mainThread() async {
    let done = Latch()
    let log = Log<String>()
    RACScheduler.mainThread().schedule {
      MainActor.assumeIsolated { log.append("main") }
      if RACScheduler.current() === RACScheduler.mainThread() { log.append("current") }
      done.signal()
    }
    log.append("caller")
    #expect(await done.wait())
    #expect(log.values == ["caller", "main", "current"])
  }

  @Test("a bridged block and a task on the core share one queue and one order")
  func sharedQueue() async {
    let core = SerialScheduler()
    let rac = core.racScheduler
    let log = Log<String>()
    let done = Latch(count: 3)
    rac.schedule {
      log.append("block 1")
      done.signal()
    }
    Task(executorPreference: core) {
      log.append("task")
      done.signal()
    }
    rac.schedule {
      log.append("block 2")
      done.signal()
    }
    #expect(await done.wait())
    #expect(log.values.first == "block 1")
    #expect(log.values.contains("task") && log.values.contains("block 2"))
  }

  @Test("subscription() runs inline when a current scheduler exists, otherwise on a background scheduler")
  func subscription() async {
    let subscription = RACScheduler.subscription()
    let outer = RACScheduler()
    let log = Log<String>()
    let done = Latch(count: 2)
    outer.schedule {
      let disposable = subscription.schedule {
        log.append(RACScheduler.current() === outer ? "inline on outer" : "elsewhere")
      }
      log.append(disposable == nil ? "returned nil" : "returned a disposable")
      subscription.afterDelay(0) {
        log.append(RACScheduler.current() === outer ? "timed on outer" : "timed elsewhere")
        done.signal()
      }
    }
    let background = subscription.schedule {
      let current = RACScheduler.current()
      log.append(current != nil && current !== outer ? "background" : "not background")
      done.signal()
    }
    #expect(background != nil)
    #expect(await done.wait())
    #expect(Set(log.values) == ["inline on outer", "returned nil", "timed on outer", "background"])
  }

  @Test("afterDelay runs the block no earlier than the delay, and NaN is refused")
  func afterDelay() async {
    let scheduler = RACScheduler()
    let start = Date()
    let done = Latch()
    let elapsed = Log<TimeInterval>()
    scheduler.afterDelay(0.02) {
      elapsed.append(Date().timeIntervalSince(start))
      done.signal()
    }
    #expect(await done.wait())
    #expect((elapsed.values.first ?? 0) >= 0.02)
    await #expect(processExitsWith: .failure) {
      _ = RACScheduler().afterDelay(.nan) {}
    }
  }

  @Test("a scheduler released right after scheduling still runs its blocks as the current scheduler")
  func blocksKeepTheirScheduler() async {
    let names = Log<String?>()
    let done = Latch(count: 3)
    do {
      let scheduler = RACScheduler(priority: .default, name: "released")
      scheduler.afterDelay(0.005) {
        names.append(RACScheduler.current()?.name)
        done.signal()
      }
      scheduler.schedule {
        names.append(RACScheduler.current()?.name)
        done.signal()
      }
      let timer = Log<RACDisposable>()
      if let repeating = scheduler.after(
        Date(), repeatingEvery: 0.001, withLeeway: 0,
        schedule: {
          names.append(RACScheduler.current()?.name)
          timer.values.first?.dispose()
          done.signal()
        })
      {
        timer.append(repeating)
      }
    }
    #expect(await done.wait())
    #expect(names.values.count >= 3 && names.values.allSatisfy { $0 == "released" })
  }

  /// Values an exit test's child process looks up by index (exit tests pass captured values as JSON,
  /// which has no NaN or infinity).
  private static let badIntervals: [Double] = [1e300, .infinity, -1, 0, .nan, -.infinity]

  @Test(
    "repeating intervals out of RAC's range fail with a message naming the argument and the value",
    arguments: badIntervals.indices)
  func repeatingIntervalOutOfRange(index: Int) async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) { [index] in
      _ = RACScheduler().after(Date(), repeatingEvery: Self.badIntervals[index], withLeeway: 0) {}
    }
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      message.contains("interval must be greater than 0") && message.contains("(got \(Self.badIntervals[index]))"))
  }

  @Test(
    "leeways out of RAC's range fail with a message naming the argument",
    arguments: badIntervals.indices.filter { badIntervals[$0] != 0 })
  func repeatingLeewayOutOfRange(index: Int) async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) { [index] in
      _ = RACScheduler().after(Date(), repeatingEvery: 1, withLeeway: Self.badIntervals[index]) {}
    }
    let message = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(message.contains("leeway must be at least 0") && message.contains("(got \(Self.badIntervals[index]))"))
  }

  @Test("an interval below a nanosecond is rounded up to one nanosecond")
  func tinyInterval() {
    let scheduler = RACTestScheduler()
    let log = Log<SchedulerInstant>()
    let disposable = scheduler.after(Date(), repeatingEvery: 1e-19, withLeeway: 0) {
      log.append(scheduler.testScheduler.now)
    }
    scheduler.step(3)
    disposable?.dispose()
    let fires = log.values
    #expect(fires.count == 3)
    #expect(zip(fires, fires.dropFirst()).allSatisfy { $0.duration(to: $1) == .nanoseconds(1) })
  }

  @Test("repeating arguments are checked with messages naming them")
  func repeatingPreconditions() async {
    await #expect(processExitsWith: .failure) {
      _ = RACScheduler().after(Date(), repeatingEvery: 0, withLeeway: 0) {}
    }
    await #expect(processExitsWith: .failure) {
      _ = RACScheduler().after(Date(), repeatingEvery: .nan, withLeeway: 0) {}
    }
    await #expect(processExitsWith: .failure) {
      _ = RACScheduler().after(Date(), repeatingEvery: 1, withLeeway: -1) {}
    }
  }

  @Test("a distant date never fires and does not trap")
  func distantDate() {
    let scheduler = RACTestScheduler()
    let log = Log<String>()
    scheduler.after(.distantFuture) { log.append("far") }
    scheduler.step()
    #expect(log.values == ["far"])  // on virtual time, stepping reaches even a distant date
    let real = RACScheduler()
    let disposable = real.after(.distantFuture) { log.append("never") }
    disposable?.dispose()
  }

  @Test("afterDelay with -infinity runs as soon as possible and with +infinity never; a NaN date fails with a message")
  func infiniteDelays() async throws {
    let scheduler = RACTestScheduler()
    let log = Log<String>()
    scheduler.afterDelay(-.infinity) { log.append("soon") }
    let never = scheduler.afterDelay(.infinity) { log.append("never") }
    scheduler.step()
    #expect(log.values == ["soon"])
    #expect(scheduler.testScheduler.nextDeadline! >= SchedulerInstant(offset: .seconds(1_000_000_000)))
    never?.dispose()
    scheduler.step(-2)
    #expect(log.values == ["soon"])
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = RACScheduler().after(Date(timeIntervalSinceReferenceDate: .nan)) {}
    }
    #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("not a valid date (NaN)"))
  }
}
