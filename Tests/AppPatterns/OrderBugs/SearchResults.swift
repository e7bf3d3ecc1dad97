// App code as a team writes it: no import of swift-async-schedulers.

/// A search backend: answers every query after the same latency.
public struct SearchBackend: Sendable {
  public let latency: Duration
  public init(latency: Duration) { self.latency = latency }
  public func search(_ query: String) async throws -> [String] {
    try await Task.sleep(for: latency)
    return ["\(query)1", "\(query)2"]
  }
}

/// Order bug: every keystroke starts a search and shows whatever answers, so a stale answer that
/// arrives last overwrites the fresh one.
@MainActor
public final class SearchResultsModel {
  public private(set) var results: [String] = []
  private let backend: SearchBackend
  public init(backend: SearchBackend) { self.backend = backend }

  public func queryChanged(_ query: String) {
    Task {
      let found = (try? await backend.search(query)) ?? []
      results = found
    }
  }
}

/// The fix: a new query cancels the search in flight, and a cancelled search shows nothing.
@MainActor
public final class LatestSearchResultsModel {
  public private(set) var results: [String] = []
  private let backend: SearchBackend
  private var search: Task<Void, Never>?
  public init(backend: SearchBackend) { self.backend = backend }

  public func queryChanged(_ query: String) {
    search?.cancel()
    search = Task {
      let found = (try? await backend.search(query)) ?? []
      guard !Task.isCancelled else { return }
      results = found
    }
  }
}
