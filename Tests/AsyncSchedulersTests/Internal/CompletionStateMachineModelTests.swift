import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers

/// Seeded random interleavings of the events of one awaited callback operation (install, attach,
/// completions, cancellation) against the rule: the continuation is resumed exactly once, with the
/// result if completion came first and with cancellation otherwise, and the work's disposable is
/// disposed exactly when cancellation came first.
@Suite("CompletionStateMachine model: callback completion")
struct CallbackCompletionModelTests {
  @Test("random interleavings resume exactly once and dispose the work only when cancellation wins")
  func randomInterleavings() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(20_000) {
        var random = SplitMix(seed: seed)
        var machine = CompletionStateMachine<Int, AnyDisposable>()
        var resumes: [String] = []
        var disposals = 0
        var events: [String] = []
        let cancelAt = Int(random.next() % 6)
        let completions = Int(random.next() % 3)
        let completeAt = Int(random.next() % 6)
        var step = 0
        func tick() {
          if step == cancelAt {
            events.append("cancel")
            if let (_, disposable) = machine.cancel() {
              resumes.append("cancelled")
              if disposable != nil { disposals += 1 }
            }
          }
          // The work can only complete once it has started (after install).
          if step == completeAt && step > 0 && !(events.first == "cancel" && cancelAt == 0) {
            for _ in 0..<completions {
              events.append("complete")
              if machine.complete() != nil { resumes.append("completed") }
            }
          }
          step += 1
        }
        tick()
        if machine.install(1) {
          tick()
          if machine.attach(AnyDisposable {}) { disposals += 1 }
          tick()
        } else {
          resumes.append("cancelled")
        }
        for _ in 0..<4 { tick() }
        // A cancellation or completion that never came leaves the operation waiting: end it.
        if resumes.isEmpty, let (_, disposable) = machine.cancel() {
          events.append("final cancel")
          resumes.append("cancelled")
          if disposable != nil { disposals += 1 }
        }
        let first = events.first { $0 == "cancel" || $0 == "complete" || $0 == "final cancel" }
        failures.check(resumes.count == 1, "seed \(seed): resumed \(resumes) after \(events)")
        failures.check(resumes.first == (first == "complete" ? "completed" : "cancelled"), "seed \(seed): \(events)")
        let cancelledFirst = first != "complete"
        let installed = !(events.first == "cancel" && cancelAt == 0)
        failures.check(
          disposals == (cancelledFirst && installed ? 1 : 0),
          "seed \(seed): disposed \(disposals) times after \(events)")
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }
}

/// The same machine driven as `perform` drives it: install, schedule (which may start the job inline),
/// attach, start, complete; cancellation at any point wins only until the job starts.
@Suite("CompletionStateMachine model: perform")
struct PerformCompletionModelTests {
  @Test(
    "random orders of install, attach, start, finish and cancel resume exactly once, and run the body only if not cancelled first"
  )
  func randomOrders() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(20_000) {
        var random = SplitMix(seed: seed)
        var machine = CompletionStateMachine<Int, Int>()
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
              if machine.complete() != nil { resumes += 1 }
            }
          }
          if inline { runJob() }
          maybeCancel()
          _ = machine.attach(2)
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
        switch machine.state {
        case .completed, .cancelled: break
        default:
          failures.record("seed \(seed): ended in \(String(describing: machine.state))")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }
}
