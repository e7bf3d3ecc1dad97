import AsyncSchedulers

extension TestScheduler {
  /// Runs `body` `runs` times, each time in a new capturing scope on a new scheduler whose ordering
  /// choices follow a different seed, until a run fails: the XCTest spelling of
  /// `@Test(.virtualTime(exploring:))`.
  ///
  /// Each run is ``capturingAllTasks(isolation:autoAdvance:stallTimeout:expectingNoPendingWork:fileID:filePath:line:column:_:)``
  /// on a fresh ``TestScheduler`` (also ``TestScheduler/current``), which, at every virtual instant
  /// where jobs of different tasks or queues are ready together, runs the one its
  /// ``OrderingStrategy`` picks (see the strategy for what is never reordered). A run fails when
  /// `body` throws or the scheduler reports a failure (a stall, an escape, pending work); the report
  /// names its seed, which ``replayingOrdering(isolation:seed:strategy:name:autoAdvance:stallTimeout:fileID:filePath:line:column:_:)``
  /// runs again with the same choices. The failure is also reported to the running test, with the
  /// seed and the trace. XCTest's assertions record a failure without stopping the exploration: throw
  /// (`XCTUnwrap`, a thrown error) to end a failing run.
  ///
  /// The seeds of the runs follow `seed` (so an exploration is the same on every machine); `body`
  /// runs in the caller's isolation and must not block. Cancellation ends the exploration after the
  /// current run.
  ///
  /// - Precondition: `runs >= 1` (checked in release builds too).
  @discardableResult
  public static func exploringOrderings(
    isolation: isolated (any Actor)? = #isolation,
    runs: Int, strategy: OrderingStrategy = .random, seed: UInt64 = 0, name: String = "TestScheduler",
    autoAdvance: Bool = true, stallTimeout: Duration = .seconds(10),
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ body: (TestScheduler) async throws -> Void
  ) async -> OrderExplorationReport {
    checkArgument(runs >= 1, "TestScheduler.exploringOrderings(runs:): runs must be at least 1 (got \(runs))")
    let (report, failure) = await explore(
      runs: runs, seed: seed, strategy: strategy,
      replay: { "TestScheduler.replayingOrdering(seed: \($0)\($1))" },
      runOnce: { runSeed in
        await runExploring(
          isolation: isolation, seed: runSeed, strategy: strategy, name: name, autoAdvance: autoAdvance,
          stallTimeout: stallTimeout, fileID: fileID, filePath: filePath, line: line, column: column, body)
      })
    if let failure { reportIssue(failure, fileID: fileID, filePath: filePath, line: line, column: column) }
    return report
  }

  /// The loop of an exploration: runs `runOnce` with the seeds that follow `seed` until a run fails,
  /// `runs` have passed, or the task is cancelled. Returns the report and, when a run failed, the
  /// failure message, whose replay hint `replay` spells from the seed and the strategy argument
  /// (empty for `.random`).
  static func explore(
    isolation: isolated (any Actor)? = #isolation,
    runs: Int, seed: UInt64, strategy: OrderingStrategy, replay: (UInt64, String) -> String,
    runOnce: (UInt64) async -> ExplorationOutcome
  ) async -> (report: OrderExplorationReport, failure: String?) {
    var seeds = SplitMix(seed: seed)
    var orderings = Set<UInt64>()
    for run in 0..<runs {
      let runSeed = seeds.next()
      let outcome = await runOnce(runSeed)
      orderings.insert(outcome.digest)
      if outcome.failed {
        let report = OrderExplorationReport(runsPassed: run, distinctOrderings: orderings.count, failure: outcome.trace)
        let strategyArgument = strategy == .random ? "" : ", strategy: \(strategy)"
        let message = explorationFailure(
          report, runs: runs, replay: replay(runSeed, strategyArgument), cause: outcome.cause)
        return (report, message)
      }
      if Task.isCancelled {
        return (OrderExplorationReport(runsPassed: run + 1, distinctOrderings: orderings.count, failure: nil), nil)
      }
    }
    return (OrderExplorationReport(runsPassed: runs, distinctOrderings: orderings.count, failure: nil), nil)
  }

  /// Runs `body` once in a capturing scope whose ordering choices follow `seed`: the run of
  /// ``exploringOrderings(isolation:runs:strategy:seed:name:autoAdvance:stallTimeout:fileID:filePath:line:column:_:)``
  /// that reported that seed, with the same choices and the same trace (given the same `strategy`).
  /// The XCTest spelling of `@Test(.virtualTime(seed:))`.
  ///
  /// Returns the run's trace; when the run fails (`body` throws, or the scheduler reports a failure),
  /// the failure is reported to the running test with the trace. `body` runs in the caller's isolation
  /// and must not block.
  @discardableResult
  public static func replayingOrdering(
    isolation: isolated (any Actor)? = #isolation,
    seed: UInt64, strategy: OrderingStrategy = .random, name: String = "TestScheduler",
    autoAdvance: Bool = true, stallTimeout: Duration = .seconds(10),
    fileID: String = #fileID, filePath: String = #filePath, line: Int = #line, column: Int = #column,
    _ body: (TestScheduler) async throws -> Void
  ) async -> ExplorationTrace {
    let outcome = await runExploring(
      isolation: isolation, seed: seed, strategy: strategy, name: name, autoAdvance: autoAdvance,
      stallTimeout: stallTimeout, fileID: fileID, filePath: filePath, line: line, column: column, body)
    if outcome.failed {
      reportIssue(
        "The replayed run failed.\(outcome.cause) Its choices:\n\(outcome.trace)", fileID: fileID, filePath: filePath,
        line: line, column: column)
    }
    return outcome.trace
  }

  /// One run exploring orderings: whether it failed, its trace and the digest of its choices.
  struct ExplorationOutcome {
    var failed: Bool
    var trace: ExplorationTrace
    var digest: UInt64
    /// What the run's body threw, described (`nil`: it returned); part of the one failure message.
    var thrown: String?

    /// How the run failed, for the failure message: what its body threw, if anything.
    var cause: String { thrown.map { " The run threw \($0)." } ?? "" }
  }

  /// Runs `body` in a capturing scope on a new scheduler exploring orderings with `seed`.
  static func runExploring(
    isolation: isolated (any Actor)? = #isolation,
    seed: UInt64, strategy: OrderingStrategy, name: String, autoAdvance: Bool, stallTimeout: Duration,
    expectingNoPendingWork: Bool = false,
    fileID: String, filePath: String, line: Int, column: Int,
    _ body: (TestScheduler) async throws -> Void
  ) async -> ExplorationOutcome {
    let scheduler = TestScheduler(name: name)
    scheduler.exploresOrderings.store(true, ordering: .relaxed)
    scheduler.state.withCriticalRegion { $0.explore(with: OrderExplorer(seed: seed, strategy: strategy)) }
    var thrown: String?
    do {
      try await $current.withValue(scheduler) {
        try await scheduler.capturingAllTasks(
          isolation: isolation, autoAdvance: autoAdvance, stallTimeout: stallTimeout, expectingNoPendingWork: false,
          fileID: fileID,
          filePath: filePath, line: line, column: column
        ) {
          try await body(scheduler)
        }
      }
    } catch {
      // Not reported here: the exploration's one failure message says it (an exploration that fails
      // is one issue, not two).
      thrown = String(describing: error)
    }
    if expectingNoPendingWork {
      scheduler.expectNoPendingWork(fileID: fileID, filePath: filePath, line: line, column: column)
    }
    let explorer = scheduler.state.withCriticalRegion { $0.exploration!.explorer }
    let (trace, digest) = (explorer.trace, explorer.digest)
    return ExplorationOutcome(
      failed: thrown != nil || scheduler.issuesReported.load(ordering: .relaxed) > 0, trace: trace, digest: digest,
      thrown: thrown)
  }

  /// The failure message of an exploration: the seed, the runs that passed, how to replay, the trace.
  static func explorationFailure(
    _ report: OrderExplorationReport, runs: Int, replay: String, cause: String = ""
  ) -> String {
    guard let trace = report.failure else { return "" }
    return "Exploring orderings: run \(report.runsPassed + 1) of \(runs) failed with seed \(trace.seed) "
      + "(\(report.runsPassed) run(s) passed before it, \(report.distinctOrderings) distinct ordering(s)).\(cause) "
      + "Replay it with \(replay). Its choices:\n\(trace)"
  }
}
