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

@Suite("PerformStateMachine model")
struct PerformStateMachineModelTests {
  @Test(
    "random orders of install, attach, start, finish and cancel resume exactly once, and run the body only if not cancelled first"
  )
  func randomOrders() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(20_000) {
        var random = SplitMix(seed: seed)
        var machine = PerformStateMachine<Int, Int>()
        var resumes = 0
        var bodyRan = false
        // The caller installs, then schedules (which may start the job inline), then attaches; the job
        // starts and finishes later; cancellation may come at any point.
        let cancelAt = Int(random.next() % 7)
        let inline = random.next() % 3 == 0
        var events: [String] = []
        func cancel() {
          events.append("cancel")
          if machine.cancel() != nil { resumes += 1 }
        }
        var step = 0
        func maybeCancel() {
          if step == cancelAt { cancel() }
          step += 1
        }
        maybeCancel()
        if machine.install(1) {
          maybeCancel()
          func runJob() {
            events.append("start")
            if machine.start() {
              bodyRan = true
              maybeCancel()
              _ = machine.finish()
              resumes += 1
            }
          }
          if inline { runJob() }
          maybeCancel()
          machine.attach(2)
          maybeCancel()
          if !inline { runJob() }
          maybeCancel()
        } else {
          resumes += 1
        }
        maybeCancel()
        failures.check(resumes == 1, "seed \(seed): resumed \(resumes) times after \(events)")
        let startedFirst = events.first { $0 == "start" || $0 == "cancel" } == "start"
        failures.check(bodyRan == startedFirst, "seed \(seed): body ran \(bodyRan) after \(events)")
        if case .resumed = machine.state {
        } else {
          failures.record("seed \(seed): ended in \(String(describing: machine.state))")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }
}
