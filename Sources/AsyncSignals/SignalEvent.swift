/// One event of a signal: a value, or one of the two terminal events.
///
/// A signal sends `next* (finished | failed)?`: any number of values, then at most one terminal event,
/// and nothing after it.
public enum SignalEvent<Element: Sendable, Failure: Error>: Sendable {
  /// A value.
  case next(Element)
  /// The signal failed; nothing follows.
  case failed(Failure)
  /// The signal finished; nothing follows.
  case finished

  /// Whether this event ends the signal.
  public var isTerminal: Bool {
    if case .next = self { return false }
    return true
  }
}
