// App code as a team writes it: no import of swift-async-schedulers.

/// A detached producer that yields `count` prices into an `AsyncStream`, sleeping `interval` between
/// them with plain `Task.sleep`, and a main-actor consumer that shows them.
@MainActor
public final class TickerFeed {
  public private(set) var shown: [Int] = []

  public init() {}

  /// Consumes the feed to its end.
  public func run(count: Int, interval: Duration) async {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    Task.detached {
      for price in 1...count {
        try? await Task.sleep(for: interval)
        continuation.yield(price)
      }
      continuation.finish()
    }
    for await price in stream { shown.append(price) }
  }
}
