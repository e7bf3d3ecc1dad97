import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Dispatch
import Synchronization
import Testing

@testable import AsyncSchedulers

@Suite("Scheduler.perform")
struct PerformTests {
  @Test("a task cancelled while the body runs still gets the body's result")
  func cancelledWhileRunningGetsTheResult() async throws {
    let scheduler = SerialScheduler(name: "perform.running")
    let started = Latch()
    let proceed = DispatchSemaphore(value: 0)
    let sideEffects = Log<Int>()
    let task = Task {
      try await scheduler.perform {
        started.signal()
        _ = proceed.wait(timeout: .now() + 60)
        sideEffects.append(1)
        return 42
      }
    }
    #expect(await started.wait())
    task.cancel()
    proceed.signal()
    #expect(try await task.value == 42)
    #expect(sideEffects.values == [1])
  }

  @Test("a task cancelled before the body starts never runs it and throws CancellationError")
  func cancelledBeforeStartNeverRuns() async {
    let scheduler = SerialScheduler(name: "perform.queued")
    let blocking = Latch()
    let release = DispatchSemaphore(value: 0)
    scheduler.execute {
      blocking.signal()
      _ = release.wait(timeout: .now() + 60)
    }
    #expect(await blocking.wait())
    let ran = Log<Int>()
    let task = Task { try await scheduler.perform { ran.append(1) } }
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    release.signal()
    let drained = Latch()
    scheduler.execute { drained.signal() }
    #expect(await drained.wait())
    #expect(ran.values.isEmpty)
  }

  @Test("an error thrown by the body reaches the caller, even when cancelled while it ran")
  func errorsReachTheCaller() async {
    struct Failure: Error {}
    let scheduler = TestScheduler()
    let task = Task(executorPreference: scheduler) {
      try await scheduler.perform { () throws -> Int in
        withUnsafeCurrentTask { $0?.cancel() }
        throw Failure()
      }
    }
    scheduler.run()
    await #expect(throws: Failure.self) { try await task.value }
  }

  @Test("on an immediate scheduler the body runs inline and its result is returned")
  func immediate() async throws {
    #expect(try await ImmediateScheduler.shared.perform { 7 } == 7)
  }
}
