import AsyncSchedulersTestSupport
import AsyncSignals
import Dispatch
import Synchronization
import Testing

@testable import AsyncSchedulers

/// A time operator's timer firing while the upstream finishes, on real threads: the timer's value
/// must still arrive, before the end. A zero interval makes the timer fire on a worker thread at the
/// very moment the test thread sends the end, so the two decisions race on every round.
@Suite("Time operators under races (StressTests)")
struct TimeOperatorRaceTests {
  enum Operator: String, CaseIterable, Sendable {
    case debounce, throttleLatest, collect, delay
  }

  @Test(
    "a value whose timer fires as the upstream finishes is sent before the end, never lost",
    arguments: Operator.allCases)
  func timerFiringAtTheEnd(_ kind: Operator) async {
    let rounds = (ThreadSanitizerHooks.shared == nil ? 20_000 : 100) * ModelTesting.soak
    let lost = await onDedicatedThread {
      let scheduler = ConcurrentScheduler(name: "race.\(kind)", maxConcurrentJobs: 4)
      var lost: [String] = []
      for round in 0..<rounds {
        let subject = SignalSubject<Int, Never>()
        let received = Log<String>()
        let ended = DispatchSemaphore(value: 0)
        let signal: Signal<String, Never>
        switch kind {
        case .debounce: signal = subject.signal.debounce(for: .zero, on: scheduler).map { "\($0)" }
        case .throttleLatest:
          signal = subject.signal.throttle(for: .zero, on: scheduler, latest: true).map { "\($0)" }
        case .collect: signal = subject.signal.collect(every: .zero, on: scheduler).map { "\($0)" }
        case .delay: signal = subject.signal.delay(.zero, on: scheduler).map { "\($0)" }
        }
        let subscription = signal.subscribe { (event: SignalEvent<String, Never>) in
          switch event {
          case .next(let value): received.append(value)
          case .finished, .failed:
            received.append("end")
            ended.signal()
          }
        }
        subject.send(1)
        subject.send(2)
        subject.finish()
        _ = ended.wait(timeout: .now() + 30)
        let values = received.values
        // Every operator must deliver its last value (2, or the batch holding it) before the end.
        if values.last != "end" || !(values.dropLast().last ?? "").contains("2") {
          lost.append("round \(round): \(values)")
        }
        subscription.dispose()
      }
      return lost
    }
    #expect(lost.isEmpty, "\(kind): \(lost.count) of \(rounds) rounds lost the value: \(lost.prefix(5))")
  }
}
