import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Dispatch
import Foundation
import Testing

@Suite("SerialDispatchQueueScheduler")
struct SerialDispatchQueueSchedulerTests {
  @Test("actions run one at a time in FIFO order, interleaved with the core's own callbacks", arguments: [0, 1, 2])
  func fifoSharedWithTheCore(initializer: Int) async {
    let scheduler =
      switch initializer {
      case 0: SerialDispatchQueueScheduler(qos: .default)
      case 1: SerialDispatchQueueScheduler(queue: .global(), internalSerialQueueName: "test.queue")
      default: SerialDispatchQueueScheduler(serialQueue: DispatchQueue(label: "test.serial"))
      }
    let log = Log()
    for index in 0..<200 {
      if index % 2 == 0 {
        _ = scheduler.schedule(index) { index in
          log("\(index)")
          return Disposables.create()
        }
      } else {
        scheduler.core.execute { log("\(index)") }
      }
    }
    await drain(scheduler)
    #expect(log.values == (0..<200).map(String.init))
  }

  @Test("disposing before the action starts means it never runs; after, it disposes what the action returned")
  func disposeBeforeAndAfter() async {
    let scheduler = SerialDispatchQueueScheduler(qos: .default)
    let log = Log()
    let gate = DispatchSemaphore(value: 0)
    _ = scheduler.schedule(()) { _ in
      gate.wait()
      return Disposables.create()
    }
    let cancelled = scheduler.schedule(()) { _ in
      log("ran")
      return Disposables.create()
    }
    cancelled.dispose()
    gate.signal()
    let inner = BooleanDisposable()
    let ran = scheduler.schedule(()) { _ in inner }
    await drain(scheduler)
    #expect(log.values.isEmpty)
    #expect(!inner.isDisposed)
    ran.dispose()
    #expect(inner.isDisposed)
  }

  @Test("scheduleRelative runs after its due time; .never never runs; a negative due time runs at once")
  func relative() async {
    let scheduler = SerialDispatchQueueScheduler(qos: .default)
    let log = Log()
    let done = Latch(count: 2)
    // The past item is scheduled first: its deadline (5 ms before the call) then precedes the later
    // one's however slowly the calls run (under ThreadSanitizer on a loaded machine they took over 25 ms).
    _ = scheduler.scheduleRelative((), dueTime: .milliseconds(-5)) { _ in
      log("past")
      done.signal()
      return Disposables.create()
    }
    let start = ContinuousClock.now
    let elapsed = Locked<Duration>(.zero)
    _ = scheduler.scheduleRelative((), dueTime: .milliseconds(20)) { _ in
      elapsed.withCriticalRegion { $0 = ContinuousClock.now - start }
      log("later")
      done.signal()
      return Disposables.create()
    }
    _ = scheduler.scheduleRelative((), dueTime: .never) { _ in
      log("never")
      return Disposables.create()
    }
    #expect(await done.wait())
    #expect(log.values == ["past", "later"])
    #expect(elapsed.withCriticalRegion { $0 } >= .milliseconds(20))
  }

  @Test("schedulePeriodic threads the state through ticks until disposed; a .never period ticks once")
  func periodic() async {
    let scheduler = SerialDispatchQueueScheduler(qos: .default)
    let log = Log()
    let three = Latch(count: 3)
    let ticking = scheduler.schedulePeriodic(1, startAfter: .milliseconds(1), period: .milliseconds(2)) { state in
      log("tick \(state)")
      three.signal()
      return state + 1
    }
    #expect(await three.wait())
    ticking.dispose()
    await drain(scheduler)
    let count = log.values.count
    #expect(Array(log.values.prefix(3)) == ["tick 1", "tick 2", "tick 3"])
    let once = Latch()
    _ = scheduler.schedulePeriodic(0, startAfter: .milliseconds(1), period: .never) { state in
      once.signal()
      return state
    }
    #expect(await once.wait())
    #expect(log.values.count == count)
  }

  @Test(
    "schedule and schedulePeriodic take a plain-class state and actions, as RxSwift's; a repeating core timer threads it"
  )
  func plainClassStateOnTheCore() {
    final class Progress {
      var steps: [Int] = []
    }
    let test = TestScheduler()
    let scheduler = SerialDispatchQueueScheduler(core: test)
    let progress = Progress()
    _ = scheduler.schedule(progress) { state in
      state.steps.append(0)
      return Disposables.create()
    }
    let ticking = scheduler.schedulePeriodic(progress, startAfter: .seconds(1), period: .seconds(1)) { state in
      state.steps.append(state.steps.count)
      return state
    }
    test.advance(by: .seconds(3))
    ticking.dispose()
    test.advance(by: .seconds(3))
    #expect(progress.steps == [0, 1, 2, 3])
  }

  @Test("a period that is not positive stops the program with a message")
  func nonPositivePeriod() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = SerialDispatchQueueScheduler(qos: .default).schedulePeriodic(0, startAfter: .seconds(0), period: .seconds(0))
      {
        $0
      }
    }
    #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("period must be positive or .never"))
  }
}
