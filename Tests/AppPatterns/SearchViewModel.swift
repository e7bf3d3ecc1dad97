// App code as a team writes it: no import of swift-async-schedulers.

/// A search field's view model: each keystroke restarts a 300 ms debounce, then searches.
///
/// The clock is injected (the swift-clocks way); with `clock: nil` it sleeps with plain `Task.sleep`.
@MainActor
public final class SearchViewModel {
  public private(set) var query = ""
  public private(set) var results: [String] = []
  public private(set) var searches: [String] = []
  private var pending: Task<Void, Never>?
  private let clock: (any Clock<Duration>)?
  private let search: @Sendable (String) async -> [String]

  /// A view model that debounces on `clock`, or with plain `Task.sleep` when `clock` is `nil`.
  public init(clock: (any Clock<Duration>)? = nil, search: @escaping @Sendable (String) async -> [String]) {
    self.clock = clock
    self.search = search
  }

  /// Called on every keystroke.
  public func queryChanged(_ text: String) {
    query = text
    pending?.cancel()
    pending = Task {
      do {
        if let clock {
          try await clock.sleep(for: .milliseconds(300))
        } else {
          try await Task.sleep(for: .milliseconds(300))
        }
      } catch {
        return
      }
      searches.append(text)
      results = await search(text)
    }
  }

  /// Waits for the search in flight, if any.
  public func settle() async { await pending?.value }
}
