#if canImport(Testing)
  import Synchronization
  import Testing

  /// A Swift Testing trait that runs each test on virtual time: inside
  /// ``TestScheduler/capturingAllTasks(isolation:autoAdvance:stallTimeout:fileID:filePath:line:column:_:)`` on a new
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
    /// ``TestScheduler/capturingAllTasks(isolation:autoAdvance:stallTimeout:fileID:filePath:line:column:_:)``).
    public var autoAdvances: Bool = true

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
      let location = test.sourceLocation
      let scheduler = TestScheduler(name: test.displayName ?? test.name)
      try await TestScheduler.$current.withValue(scheduler) {
        try await scheduler.capturingAllTasks(
          autoAdvance: autoAdvances, stallTimeout: stallTimeout, fileID: location.fileID, filePath: location.filePath,
          line: location.line,
          column: location.column
        ) {
          try await function()
        }
      }
      if expectsNoPendingWork {
        scheduler.expectNoPendingWork(
          fileID: location.fileID, filePath: location.filePath, line: location.line, column: location.column)
      }
    }
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

  /// Identities of ``VirtualTimeTrait`` values.
  private enum VirtualTimeTraitIdentity {
    private static let last = Atomic<UInt64>(0)
    static func next() -> UInt64 { last.add(1, ordering: .relaxed).newValue }
  }
#endif
