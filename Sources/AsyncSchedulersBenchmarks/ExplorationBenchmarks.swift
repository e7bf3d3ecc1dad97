import AsyncSchedulers
import AsyncSchedulersTesting

/// An account on its own actor, audited by another: the shape of a view-model test's work (tasks that
/// sleep, call an actor that awaits another, and sleep again).
private actor BenchmarkAccount {
  private var balance = 0
  private let audit = BenchmarkAudit()
  func deposit(_ amount: Int) async {
    balance += amount
    await audit.record(amount)
  }
  var total: Int { balance }
}

private actor BenchmarkAudit {
  private var entries = 0
  func record(_ amount: Int) { entries += 1 }
}

/// One view-model-sized test body: six tasks, each sleeping, then depositing twice (an actor that
/// awaits another); the tasks sleep first, as the benchmark has since it was written.
private func viewModelSizedTest() async {
  let account = BenchmarkAccount()
  let tasks = (0..<6).map { index in
    Task {
      try? await Task.sleep(for: .milliseconds(100 * (index % 3 + 1)))
      await account.deposit(1)
      await account.deposit(1)
    }
  }
  for task in tasks { await task.value }
  let total = await account.total
  precondition(total == 12)
}

/// Scenario 7c: a run exploring orderings against a plain capturing scope running the same test body
/// (the same jobs, in FIFO order): the cost of choosing among ready jobs and keeping the trace, per run
/// and so per job. Also reports how many such runs fit in a second.
func exploringOrderings(_ options: RunOptions) -> [Figure] {
  let runs = options.size(2_000, quick: 300)
  let exploring = compare(
    scenario: "7c exploring orderings: a view-model-sized test, per run", operations: runs, options: options,
    target: .ratio(2),
    ours: {
      time {
        blocking {
          let report = await TestScheduler.exploringOrderings(runs: runs) { _ in await viewModelSizedTest() }
          precondition(report.failure == nil && report.runsPassed == runs)
        }
      }
    },
    baseline: {
      time {
        blocking {
          for _ in 0..<runs {
            let scheduler = TestScheduler()
            await scheduler.capturingAllTasks { await viewModelSizedTest() }
          }
        }
      }
    })
  let perSecond = Figure(
    scenario: "7c … exploring runs of that test per second (information)", ours: 1e9 / exploring.ours,
    baseline: 1e9 / exploring.baseline, unit: "runs/s", target: .info, oursSpread: nil, baselineSpread: nil)
  return [exploring, perSecond]
}
