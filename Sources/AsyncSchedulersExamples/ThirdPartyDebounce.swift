extension AsyncStream where Element: Sendable {
  /// A debounce as third-party code writes one (swift-async-algorithms' shape, simplified): an internal
  /// `Task {}` per value that sleeps on the clock it is given, cancelled by the next value. It imports
  /// nothing of this package: the capture example runs it on virtual time unchanged.
  func debounced(for interval: Duration, clock: some Clock<Duration> & Sendable) -> AsyncStream<Element> {
    AsyncStream { continuation in
      let upstream = Task {
        var pending: Task<Void, Never>?
        for await value in self {
          pending?.cancel()
          pending = Task {
            do { try await clock.sleep(for: interval) } catch { return }
            guard !Task.isCancelled else { return }
            continuation.yield(value)
          }
        }
        await pending?.value
        continuation.finish()
      }
      continuation.onTermination = { _ in upstream.cancel() }
    }
  }
}
