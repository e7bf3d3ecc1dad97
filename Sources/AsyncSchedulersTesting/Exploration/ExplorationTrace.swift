import AsyncSchedulers

/// The ordering decisions of one run that explored orderings: at each virtual instant where more than
/// one job could run next, which ran and which were ready. Replaying the run's seed gives the same
/// trace.
///
/// Tasks are named by the order in which they first had a job ready in the run (`task 1` is usually
/// the test's body), the same in every replay; main-actor jobs and the test scheduler's own queue
/// (callbacks, actors bound to it) are one queue each, as Swift orders them.
public struct ExplorationTrace: Sendable, Hashable, CustomStringConvertible {
  /// One choice among several ready jobs.
  public struct Decision: Sendable, Hashable {
    /// The virtual instant at which the choice was made.
    public let instant: SchedulerInstant
    /// The job that ran: its task (`task 3`), or `main actor (task 2)`, or `scheduler queue`.
    public let ran: String
    /// Every job that could have run, the one that ran included, in enqueue order.
    public let ready: [String]
  }

  /// The seed of the run.
  public let seed: UInt64
  /// The strategy that made the choices.
  public let strategy: OrderingStrategy
  /// The choices, in order (at most the first ``maximumRecordedDecisions``).
  public let decisions: [Decision]
  /// How many choices the run made (also those past ``maximumRecordedDecisions``).
  public let decisionCount: Int
  /// How many jobs ran while the run explored.
  public let jobCount: Int

  /// The most decisions a trace keeps.
  public static let maximumRecordedDecisions = 1_000

  /// The trace, one decision per line.
  public var description: String {
    var lines = [
      "seed \(seed) (strategy \(strategy)): \(jobCount) jobs, \(decisionCount) choice(s) among ready jobs"
    ]
    for (index, decision) in decisions.enumerated() {
      let others = decision.ready.filter { $0 != decision.ran }
      lines.append(
        "  \(index + 1). at \(decision.instant): \(decision.ran) ran (also ready: \(others.joined(separator: ", ")))")
    }
    if decisionCount > decisions.count { lines.append("  … \(decisionCount - decisions.count) more") }
    return lines.joined(separator: "\n")
  }
}
