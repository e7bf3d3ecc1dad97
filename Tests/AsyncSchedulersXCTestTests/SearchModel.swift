/// App code as it is written (no import of this package): a main-actor view model whose search waits
/// for the user to stop typing, with a plain `Task {}` and a plain `Task.sleep`.
@MainActor
final class SearchModel {
  private(set) var searches: [String] = []
  private var pending: Task<Void, Never>?

  func queryChanged(_ query: String) {
    pending?.cancel()
    pending = Task {
      do { try await Task.sleep(for: .milliseconds(300)) } catch { return }
      searches.append(query)
    }
  }
}
