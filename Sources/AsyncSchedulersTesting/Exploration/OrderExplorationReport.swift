/// What exploring orderings found: how many runs passed, how many distinct orderings ran, and the
/// failing run's seed and trace when one failed (the exploration stops at the first).
public struct OrderExplorationReport: Sendable, CustomStringConvertible {
  /// How many runs passed.
  public let runsPassed: Int
  /// How many of the runs made different choices (runs whose choices were all the same count once).
  public let distinctOrderings: Int
  /// The trace of the run that failed (its ``ExplorationTrace/seed`` replays it), or `nil` when every
  /// run passed.
  public let failure: ExplorationTrace?

  /// A one-line summary, then the failing run's trace.
  public var description: String {
    guard let failure else {
      return "explored \(runsPassed) run(s), \(distinctOrderings) distinct ordering(s): all passed"
    }
    return "run \(runsPassed + 1) failed with seed \(failure.seed) after \(runsPassed) passed "
      + "(\(distinctOrderings) distinct ordering(s)); its choices:\n\(failure)"
  }
}
