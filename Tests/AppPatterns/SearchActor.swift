// App code as a team writes it: no import of swift-async-schedulers.

/// The same debounced search as ``SearchViewModel``, in a default actor with an injected clock.
public actor SearchActor {
  public private(set) var searches: [String] = []
  private var pending: Task<Void, Never>?
  private let clock: any Clock<Duration>

  public init(clock: any Clock<Duration>) { self.clock = clock }

  /// Called on every keystroke.
  public func queryChanged(_ text: String) {
    pending?.cancel()
    pending = Task {
      do { try await clock.sleep(for: .milliseconds(300)) } catch { return }
      record(text)
    }
  }

  private func record(_ text: String) { searches.append(text) }
}
