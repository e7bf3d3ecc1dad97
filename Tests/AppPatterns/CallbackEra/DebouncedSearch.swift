// App code as callback-era code writes it: a `DispatchWorkItem` debounce on the main queue, no import
// of swift-async-schedulers.
import Dispatch

/// A search box that runs its query `delay` seconds after the last keystroke (each keystroke cancels
/// the pending work item), on the main queue.
@MainActor
public final class DebouncedSearch {
  public private(set) var queries: [String] = []
  private var pending: DispatchWorkItem?
  private let delay: Double
  private let onSearch: @MainActor (String) -> Void

  /// A search box whose query runs `delay` seconds after the last keystroke; `onSearch` sees each query
  /// run (on the main actor).
  public init(delay: Double, onSearch: @escaping @MainActor (String) -> Void = { _ in }) {
    self.delay = delay
    self.onSearch = onSearch
  }

  /// A keystroke: the text so far.
  public func type(_ text: String) {
    pending?.cancel()
    let item = DispatchWorkItem { [weak self] in
      MainActor.assumeIsolated {
        self?.queries.append(text)
        self?.onSearch(text)
      }
    }
    pending = item
    DispatchQueue.main.asyncAfter(deadline: .now() + delay, execute: item)
  }
}
