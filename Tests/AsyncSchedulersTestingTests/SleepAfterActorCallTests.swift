import AsyncSchedulersTesting
import Testing

/// A default actor that awaits another, as app code does.
private actor Ledger {
  private var entries = 0
  private let audit = Audit()
  func record() async {
    entries += 1
    await audit.note()
  }
}

private actor Audit {
  private var notes = 0
  func note() { notes += 1 }
}

@Suite("A plain sleep the runtime puts on a Dispatch timer still wakes on virtual time")
struct SleepAfterActorCallTests {
  @Test("A Task.sleep right after a default actor's call returns wakes at its exact virtual deadline, unreported")
  func sleepAfterActorCallIsExact() async {
    // On Swift 6.3 the task goes on on the actor's thread after the call, where no executor of the
    // scope is current, so the runtime hands its sleep to the global executor's Dispatch timer. The
    // scope redirects the concurrency library's Dispatch timers armed on its thread to its scheduler
    // (before, this sleep took 300 ms of real time and was reported as woken by real time).
    let scheduler = TestScheduler()
    await scheduler.capturingAllTasks {
      let ledger = Ledger()
      let task = Task {
        await ledger.record()
        try? await Task.sleep(for: .milliseconds(300))
      }
      await task.value
    }
    #expect(scheduler.now == .zero.advanced(by: .milliseconds(300)))
    scheduler.expectNoPendingWork()
  }

  @Test("A sleep before the actor's call stays on virtual time and is not reported")
  func sleepBeforeActorCallIsExact() async {
    let scheduler = TestScheduler()
    await scheduler.capturingAllTasks {
      let ledger = Ledger()
      let task = Task {
        try? await Task.sleep(for: .milliseconds(300))
        await ledger.record()
      }
      await task.value
    }
    #expect(scheduler.now == .zero.advanced(by: .milliseconds(300)))
  }
}
