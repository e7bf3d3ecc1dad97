import AsyncSchedulers

/// How a test exploring orderings chooses, at each virtual instant, which of the jobs that may legally
/// run next runs: uniformly at random, or by probabilistic concurrency testing (PCT).
///
/// Only jobs that Swift leaves unordered are permuted: jobs of different tasks on the global executor,
/// the main actor's queue, and the test scheduler's own serial queue (its callbacks and the jobs of
/// actors bound to it) compete with each other; inside the main actor's queue and the scheduler's
/// queue, jobs keep their enqueue order, and a task's jobs keep theirs. Timers due at the same instant
/// all fire before any job runs, so their wake-ups are ready together.
public struct OrderingStrategy: Sendable, Hashable, CustomStringConvertible {
  enum Kind: Hashable {
    case random
    case pct(depth: Int, expectedDecisions: Int)
  }

  let kind: Kind

  /// At each choice, every job that may run next is equally likely.
  public static var random: Self { Self(kind: .random) }

  /// Probabilistic concurrency testing (Burckhardt et al., ASPLOS 2010): each task or queue gets a
  /// random priority when it first has a job ready, the highest-priority ready job always runs, and at
  /// `depth - 1` random choice points (among the first `expectedDecisions` choices of a run) the
  /// running task's priority drops below every other. A bug that needs `depth` ordering constraints to
  /// show is found in each run with probability at least 1 / (n × k^(depth-1)), for n tasks and k
  /// choices.
  ///
  /// - Precondition: `depth >= 1` and `expectedDecisions >= 1` (checked in release builds too).
  public static func pct(depth: Int = 3, expectedDecisions: Int = 64) -> Self {
    checkArgument(depth >= 1, "OrderingStrategy.pct(depth:expectedDecisions:): depth must be at least 1 (got \(depth))")
    checkArgument(
      expectedDecisions >= 1,
      "OrderingStrategy.pct(depth:expectedDecisions:): expectedDecisions must be at least 1 (got \(expectedDecisions))")
    return Self(kind: .pct(depth: depth, expectedDecisions: expectedDecisions))
  }

  /// The strategy as code spells it (`.random`, `.pct(depth: 3, expectedDecisions: 64)`), for replay
  /// hints.
  public var description: String {
    switch kind {
    case .random: ".random"
    case .pct(let depth, let decisions): ".pct(depth: \(depth), expectedDecisions: \(decisions))"
    }
  }
}
