import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSignals
import Testing

@Suite("concat")
struct ConcatTests {
  @Test("A first signal that finishes while it is being subscribed still hands over to the second")
  func firstFinishingDuringSubscriptionHandsOver() {
    let second = SignalSubject<Int, Never>()
    let log = Log<String>()
    let subscription = Signal<Int, Never>.just(1).concat(second.signal).subscribe { event in
      switch event {
      case .next(let value): log.append("\(value)")
      case .failed: log.append("failed")
      case .finished: log.append("|")
      }
    }
    second.send(2)
    second.finish()
    #expect(log.values == ["1", "2", "|"])
    subscription.dispose()
  }

  @Test("Disposing the concatenation disposes the second subscription too")
  func disposingStopsTheSecond() {
    let second = SignalSubject<Int, Never>()
    let log = Log<Int>()
    let subscription = Signal<Int, Never>.just(1).concat(second.signal).subscribe { event in
      if case .next(let value) = event { log.append(value) }
    }
    subscription.dispose()
    second.send(2)
    #expect(log.values == [1])
  }
}
