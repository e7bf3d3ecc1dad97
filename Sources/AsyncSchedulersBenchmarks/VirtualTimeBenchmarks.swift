import AsyncSchedulers
import AsyncSchedulersTesting
import Dispatch
import Foundation

/// Counts from closures run on one thread at a time.
final class Tally: @unchecked Sendable {
  // Why @unchecked Sendable: only touched by the thread driving a TestScheduler (or the heap), one
  // closure at a time.
  var value = 0
}

/// Scenario 7: callback actions at random virtual times, and sleeping tasks, against a plain heap.
func virtualTime(_ options: RunOptions) -> [Figure] {
  let actions = options.size(100_000, quick: 5_000)
  let tasks = options.size(10_000, quick: 1_000)
  func deadlines(_ count: Int) -> [Int64] { virtualTimeDeadlines(count) }
  /// The baseline: the same deadlines as closures in a plain binary heap, run in order.
  func closureHeap(_ deadlines: [Int64]) -> Duration {
    let tally = Tally()
    return time {
      var heap = ClosureHeap()
      for deadline in deadlines { heap.insert(deadline) { tally.value += 1 } }
      heap.runAll()
      precondition(tally.value == deadlines.count)
    }
  }
  let actionDeadlines = deadlines(actions)
  let taskDeadlines = deadlines(tasks)
  let callbacks = compare(
    scenario: "7 virtual time: callbacks", operations: actions, options: options, target: .ratio(3),
    ours: {
      let tally = Tally()
      return time {
        let scheduler = TestScheduler()
        for deadline in actionDeadlines {
          scheduler.schedule(at: SchedulerInstant(offset: .microseconds(deadline))) { tally.value += 1 }
        }
        scheduler.run()
        precondition(tally.value == actions)
      }
    },
    baseline: { closureHeap(actionDeadlines) })
  let sleepers = compare(
    scenario: "7 virtual time: sleeping tasks", operations: tasks, options: options, target: .ratio(10),
    ours: {
      let tally = Tally()
      return time {
        let scheduler = TestScheduler()
        for deadline in taskDeadlines {
          Task(executorPreference: scheduler) {
            try? await scheduler.sleep(for: .microseconds(deadline))
            tally.value += 1
          }
        }
        scheduler.run()
        precondition(tally.value == tasks)
      }
    },
    baseline: { closureHeap(taskDeadlines) })
  // The same sleepers as unstructured tasks (`Task {}`, no executor preference) inside a capturing
  // scope: the runtime's global enqueue hook routes them to the scheduler. Includes entering and
  // leaving the scope (registering it and its tasks, handing the pump to its parked thread) once per run.
  let captured = compare(
    scenario: "7 virtual time: sleeping tasks, captured", operations: tasks, options: options,
    target: .ratio(10),
    ours: {
      let tally = Tally()
      return time {
        let scheduler = TestScheduler()
        blocking {
          await scheduler.capturingAllTasks {
            for deadline in taskDeadlines {
              Task {
                try? await scheduler.sleep(for: .microseconds(deadline))
                tally.value += 1
              }
            }
            scheduler.run()
          }
        }
        precondition(tally.value == tasks)
      }
    },
    baseline: { closureHeap(taskDeadlines) })
  // App code as written: main-actor tasks (`Task { @MainActor in … }`) that sleep with a plain
  // `Task.sleep`, inside a capturing scope. Each round runs in a fresh process whose main thread is
  // parked in `dispatchMain()`, as it is under `swift test`: the scope runs main-actor jobs with the main
  // queue held, which is cheap then (with a run loop serving the main queue, each job would be a hop to
  // the main thread instead). The child runs the workload twice and reports both: the second (warm, as
  // every other row is measured after a warm-up run) is judged; the first, which also pays the process's
  // one-time costs (the pump thread and its memory arena, the runtime's first-use caches), is shown
  // for information.
  var firstScopes: [Double] = []
  let mainActor = compare(
    scenario: "7b virtual time: main-actor tasks, plain Task.sleep, captured", operations: tasks, options: options,
    target: .ratio(15),
    ours: {
      guard let result = runChild(["--child-main-actor-sleepers", String(tasks)]), result.count == 2 else {
        return .seconds(Int64.max / 4)
      }
      firstScopes.append(result[1] * 1e9 / Double(tasks))
      return .nanoseconds(Int64(result[0] * 1e9))
    },
    baseline: { closureHeap(taskDeadlines) })
  let firstScope = Figure(
    scenario: "7b … first scope in a fresh process (information)", ours: median(firstScopes),
    baseline: mainActor.baseline, unit: "ns/op", target: .info,
    oursSpread: firstScopes.min().map { $0...firstScopes.max()! }, baselineSpread: mainActor.baselineSpread)
  return [callbacks, sleepers, captured, mainActor, firstScope]
}

/// The deadlines of scenario 7's sleepers, in microseconds.
func virtualTimeDeadlines(_ count: Int) -> [Int64] {
  var generator = SplitMix(seed: 7)
  return (0..<count).map { _ in Int64(generator.next() % 3_600_000_000) }
}

/// Scenario 7b's child process: measures `count` main-actor tasks sleeping with plain `Task.sleep` in a
/// capturing scope, twice, on a thread of its own while the main thread is parked in `dispatchMain()`,
/// and prints `RESULT <second round's seconds> <first round's seconds>`.
func runMainActorSleepersChild(count: Int) -> Never {
  let deadlines = virtualTimeDeadlines(count)
  let thread = Thread {
    func round() -> Double {
      let tally = Tally()
      let elapsed = time {
        let scheduler = TestScheduler()
        blocking {
          await scheduler.capturingAllTasks {
            for deadline in deadlines {
              Task { @MainActor in
                try? await Task.sleep(for: .microseconds(deadline))
                tally.value += 1
              }
            }
            scheduler.run()
          }
        }
        if tally.value != count { fatalError("7b: \(tally.value) of \(count) sleepers woke") }
      }
      let (seconds, attoseconds) = elapsed.components
      return Double(seconds) + Double(attoseconds) / 1e18
    }
    let first = round()
    let second = round()
    print("RESULT \(second) \(first)")
    exit(0)
  }
  thread.start()
  dispatchMain()
}
