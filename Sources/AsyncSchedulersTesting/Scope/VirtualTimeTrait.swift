#if canImport(Testing)
  import AsyncSchedulers
  import Synchronization
  import Testing

  /// A Swift Testing trait that runs each test on virtual time: inside
  /// ``TestScheduler/capturingAllTasks(isolation:autoAdvance:stallTimeout:expectingNoPendingWork:fileID:filePath:line:column:_:)`` on a new
  /// ``TestScheduler``, reachable in the test as ``TestScheduler/current``.
  ///
  /// ```swift
  /// @Test(.virtualTime) @MainActor
  /// func searchIsDebounced() async {
  ///   let scheduler = TestScheduler.current!
  ///   let model = SearchViewModel()   // app code with a plain Task.sleep
  ///   model.queryChanged("s")
  ///   scheduler.advance(by: .milliseconds(300))
  ///   #expect(model.searches == ["s"])
  /// }
  /// ```
  ///
  /// On a `@Suite`, every test in it (and in nested suites) gets its own fresh scheduler. The trait
  /// composes with other scoping traits through `TestScoping`. When the test ends, pending work on
  /// the scheduler (ready jobs and timers, not the inert timers of sleeps whose tasks were cancelled)
  /// fails it, as ``TestScheduler/expectNoPendingWork(fileID:filePath:line:column:)`` would, unless the
  /// trait was made with `expectingNoPendingWork: false`.
  ///
  /// Cancellation: the test sees its own cancellation as usual; the scope ends however the test ends.
  public struct VirtualTimeTrait: TestTrait, SuiteTrait, TestScoping {
    /// Whether pending work at the end of the test fails it.
    public var expectsNoPendingWork: Bool
    /// How long the test may wait with nothing ready to run before the scope reports a stall.
    public var stallTimeout: Duration
    /// Whether the clock moves to the next timer by itself when every task of the test waits (see
    /// ``TestScheduler/capturingAllTasks(isolation:autoAdvance:stallTimeout:expectingNoPendingWork:fileID:filePath:line:column:_:)``).
    public var autoAdvances: Bool = true

    /// Whether the test explores orderings (runs N times with seeded choices) or replays one seed.
    enum Exploration: Sendable {
      case exploring(runs: Int, strategy: OrderingStrategy)
      case replaying(seed: UInt64, strategy: OrderingStrategy)
    }

    /// `nil` for one plain run (FIFO order).
    var exploration: Exploration?

    /// Applies to every test of a suite it is attached to.
    public var isRecursive: Bool { true }

    /// Which trait value this is: a suite's trait and a test's own compare unequal even with the same
    /// options.
    private let identity = VirtualTimeTraitIdentity.next()

    /// Provides the scope for each test case, not for the suite itself; when a test has the trait from
    /// its suite and its own (with other options), only the test's own provides the scope: the most
    /// specific one, the last of the test's traits (Swift Testing puts a suite's traits first).
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
      guard testCase != nil else { return nil }
      let last = test.traits.last { $0 is VirtualTimeTrait } as? VirtualTimeTrait
      return last == nil || last?.identity == identity ? self : nil
    }

    /// Runs `function` inside a capturing scope on a new scheduler named after the test, with the
    /// scheduler as ``TestScheduler/current``. Called by Swift Testing.
    public func provideScope(
      for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
      if let exploration {
        try await explore(exploration, test: test, performing: function)
        return
      }
      let location = test.sourceLocation
      let scheduler = TestScheduler(name: test.displayName ?? test.name)
      try await TestScheduler.$current.withValue(scheduler) {
        try await scheduler.capturingAllTasks(
          autoAdvance: autoAdvances, stallTimeout: stallTimeout, expectingNoPendingWork: false,
          fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column
        ) {
          try await function()
        }
      }
      if expectsNoPendingWork {
        scheduler.expectNoPendingWork(
          atEndOfTest: true, fileID: location.fileID, filePath: location.filePath, line: location.line,
          column: location.column)
      }
    }
  }

  extension VirtualTimeTrait {
    /// Runs `function` as `exploration` says: run after run until one fails (then an issue names its
    /// seed), or one replayed run (an issue carries its trace when it fails).
    private func explore(
      _ exploration: Exploration, test: Test, performing function: @Sendable () async throws -> Void
    ) async throws {
      let location = test.sourceLocation
      let name = test.displayName ?? test.name
      switch exploration {
      case .replaying(let seed, let strategy):
        let outcome = await run(seed: seed, strategy: strategy, name: name, location: location, function)
        if outcome.failed {
          reportIssue(
            "The run replaying seed \(seed) failed.\(outcome.cause) Its choices:\n\(outcome.trace)",
            fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column)
        }
      case .exploring(let runs, let strategy):
        let (report, failure) = await TestScheduler.explore(
          runs: runs, seed: Self.stableHash(String(describing: test.id)), strategy: strategy,
          replay: { "@Test(.virtualTime(seed: \($0)\($1)))" },
          runOnce: { seed in await run(seed: seed, strategy: strategy, name: name, location: location, function) })
        if let failure {
          reportIssue(
            failure, fileID: location.fileID, filePath: location.filePath, line: location.line,
            column: location.column)
          return
        }
        try Task.checkCancellation()
        print("◇ \(name): explored \(runs) run(s), \(report.distinctOrderings) distinct ordering(s), all passed.")
      }
    }

    /// One run on a scope exploring orderings with `seed`: whether any issue was recorded in it (its
    /// issues are recorded as usual; they are only watched).
    private func run(
      seed: UInt64, strategy: OrderingStrategy, name: String, location: SourceLocation,
      _ function: @Sendable () async throws -> Void
    ) async -> TestScheduler.ExplorationOutcome {
      let recorded = IssueFlag()
      var outcome: TestScheduler.ExplorationOutcome?
      await withKnownIssue(isIntermittent: true) {
        outcome = await TestScheduler.runExploring(
          seed: seed, strategy: strategy, name: name, autoAdvance: autoAdvances, stallTimeout: stallTimeout,
          expectingNoPendingWork: expectsNoPendingWork, fileID: location.fileID, filePath: location.filePath,
          line: location.line, column: location.column
        ) { _ in try await function() }
      } matching: { _ in
        recorded.set()
        return false
      }
      var result = outcome!
      result.failed = result.failed || recorded.isSet
      return result
    }

    /// A hash of `text` that is the same in every process (FNV-1a), to seed a test's exploration.
    static func stableHash(_ text: String) -> UInt64 {
      text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
  }

  /// Whether an issue was recorded (set from the known-issue matcher, on any thread).
  private final class IssueFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
  }

  extension Trait where Self == VirtualTimeTrait {
    /// Runs each test on virtual time: on a new ``TestScheduler`` (``TestScheduler/current`` in the
    /// test), with every task, main-actor job and plain `Task.sleep` of the test captured by it; pending
    /// work at the end fails the test.
    public static var virtualTime: Self { .virtualTime() }

    /// Runs each test on virtual time, choosing whether the clock moves by itself when every task of
    /// the test waits (`autoAdvance`; without it the test drives the clock with `advance`, `run` and
    /// `step`), whether pending work at the end fails the test, and how long the test may wait with
    /// nothing ready to run before a stall is reported.
    public static func virtualTime(
      autoAdvance: Bool = true, expectingNoPendingWork: Bool = true, stallTimeout: Duration = .seconds(10)
    ) -> Self {
      VirtualTimeTrait(
        expectsNoPendingWork: expectingNoPendingWork, stallTimeout: stallTimeout, autoAdvances: autoAdvance)
    }
  }

  extension Trait where Self == VirtualTimeTrait {
    /// Explores orderings: runs the test `runs` times, each on a fresh scheduler (``TestScheduler/current``)
    /// whose choices among the jobs ready at the same virtual instant follow a different seed (see
    /// ``OrderingStrategy`` for what is never reordered), until a run fails. The failure names the run's
    /// seed (`seed 123…`), how many runs passed before it and how many distinct orderings ran, and
    /// prints the run's choices; `.virtualTime(seed:)` replays it. The seeds follow the test's name, so
    /// an exploration is the same on every run and machine. When every run passes, one line on
    /// standard output says how many distinct orderings ran.
    ///
    /// - Precondition: `runs >= 1` (checked in release builds too).
    public static func virtualTime(
      exploring runs: Int, strategy: OrderingStrategy = .random, autoAdvance: Bool = true,
      expectingNoPendingWork: Bool = true, stallTimeout: Duration = .seconds(10)
    ) -> Self {
      checkArgument(runs >= 1, ".virtualTime(exploring:): runs must be at least 1 (got \(runs))")
      var trait = virtualTime(
        autoAdvance: autoAdvance, expectingNoPendingWork: expectingNoPendingWork, stallTimeout: stallTimeout)
      trait.exploration = .exploring(runs: runs, strategy: strategy)
      return trait
    }

    /// Replays one run of `.virtualTime(exploring:)`: the same choices among ready jobs, and so the same
    /// trace, as the run whose failure named `seed` (with the same `strategy`). When the run fails, its
    /// choices are recorded with the failure.
    public static func virtualTime(
      seed: UInt64, strategy: OrderingStrategy = .random, autoAdvance: Bool = true,
      expectingNoPendingWork: Bool = true, stallTimeout: Duration = .seconds(10)
    ) -> Self {
      var trait = virtualTime(
        autoAdvance: autoAdvance, expectingNoPendingWork: expectingNoPendingWork, stallTimeout: stallTimeout)
      trait.exploration = .replaying(seed: seed, strategy: strategy)
      return trait
    }
  }

  /// Identities of ``VirtualTimeTrait`` values.
  private enum VirtualTimeTraitIdentity {
    private static let last = Atomic<UInt64>(0)
    static func next() -> UInt64 { last.add(1, ordering: .relaxed).newValue }
  }
#endif
