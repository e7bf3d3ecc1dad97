import AsyncSchedulers

@testable import AsyncSignals

extension DrainQueue {
  /// Takes everything posted, as `describe(value)`, `finished` or `failed` lines: what a model test
  /// compares with its reference model's events.
  mutating func drained<Element>(_ describe: (Element) -> String) -> [String]
  where Item == SignalEvent<Element, TestError> {
    var sent: [String] = []
    while let event = next() {
      switch event {
      case .next(let value): sent.append(describe(value))
      case .finished: sent.append("finished")
      case .failed: sent.append("failed")
      }
    }
    return sent
  }
}
