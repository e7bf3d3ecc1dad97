import AsyncSchedulersTestSupport
import AsyncSignals
import Synchronization
import Testing

@testable import AsyncSchedulers

/// The sequencing, event, recovering and combining operators under 8 threads sending at once: events never
/// overlap, nothing follows the end, and the source's subscription is disposed exactly once.
@Suite("Operators under 8 sending threads (StressTests)")
struct OperatorGrammarStressTests {
  static let operators: [(String, @Sendable (Signal<Int, TestError>) -> Signal<Int, TestError>)] = [
    ("prepend", { $0.prepend(-1, -2) }),
    ("prefix(while:)", { $0.prefix { $0 < 1_000_000 } }),
    ("drop(while:)", { $0.drop { $0 % 7 != 3 } }),
    ("ignoreValues", { $0.ignoreValues() }),
    ("handleEvents", { $0.handleEvents(next: { _ in }, finished: {}) }),
    ("retry", { $0.retry(1) }),
    ("catch", { $0.catch { _ in .empty() } }),
    ("first(where:)", { $0.first { $0 == 5 } }),
    ("combineLatest", { $0.combineLatest(Signal<Int, TestError>.just(1).concat(.never())).map { $0.0 } }),
    ("withLatestFrom", { $0.withLatestFrom(Signal<Int, TestError>.just(1).concat(.never())).map { $0.0 } }),
    (
      "sample(on:)",
      {
        $0.sample(
          on: Signal<SchedulerInstant, Never>.interval(.microseconds(50), on: SerialScheduler()).map { _ in 0 }
            .setFailureType(to: TestError.self))
      }
    ),
    ("share", { $0.share(replay: 1) }),
    // Fused with the source's subscription: their closures run inside its delivery.
    ("map → filter → compactMap", { $0.map { $0 &+ 1 }.filter { $0 % 5 != 0 }.compactMap { $0 % 7 == 0 ? nil : $0 } }),
    ("setFailureType", { $0.catch { _ in Signal<Int, Never>.empty() }.setFailureType(to: TestError.self) }),
    ("zip", { $0.zip(Signal<Int, TestError>.just(1).concat(.never())).map { $0.0 } }),
    ("switchToLatest", { $0.map { Signal<Int, TestError>.just($0) }.switchToLatest() }),
    ("then", { $0.then(Signal<Int, TestError>.just(7)) }),
    ("reduce", { $0.reduce(0) { $0 &+ $1 } }),
    ("collect()", { $0.collect().map { $0.count } }),
    ("materialize → dematerialize", { $0.materialize().dematerialize() }),
    ("replaceError", { $0.replaceError(with: -1).setFailureType(to: TestError.self) }),
  ]

  @Test("events never overlap, nothing follows the end, the source is disposed once", arguments: Self.operators.indices)
  func grammar(_ index: Int) async {
    let (name, apply) = Self.operators[index]
    let problems = await onDedicatedThread { () -> [String] in
      var problems: [String] = []
      for round in 0..<(ThreadSanitizerHooks.shared == nil ? 20 : 2) * ModelTesting.soak {
        let observerBox = Mutex<SignalObserver<Int, TestError>?>(nil)
        let disposals = Atomic<Int>(0)
        let source = Signal<Int, TestError> { observer in
          observerBox.withCriticalRegion { $0 = observer }
          return AnyDisposable { disposals.wrappingAdd(1, ordering: .relaxed) }
        }
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let ended = Atomic<Bool>(false)
        let afterEnd = Atomic<Int>(0)
        let subscription = apply(source).subscribe { (event: SignalEvent<Int, TestError>) in
          if inside.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue > 1 {
            overlaps.wrappingAdd(1, ordering: .relaxed)
          }
          if ended.load(ordering: .acquiring) { afterEnd.wrappingAdd(1, ordering: .relaxed) }
          if event.isTerminal { ended.store(true, ordering: .releasing) }
          inside.wrappingSubtract(1, ordering: .acquiringAndReleasing)
        }
        let observer = observerBox.withCriticalRegion { $0 }!
        race { thread in
          for value in 0..<200 { observer.send(thread * 1_000 + value) }
          if thread == 0 { observer.finish() }
        }
        subscription.dispose()
        let disposed = disposals.load(ordering: .acquiring)
        if overlaps.load(ordering: .relaxed) > 0 { problems.append("round \(round): events overlapped") }
        if afterEnd.load(ordering: .relaxed) > 0 { problems.append("round \(round): events after the end") }
        if disposed != 1 { problems.append("round \(round): source disposed \(disposed) times") }
      }
      return problems
    }
    #expect(problems.isEmpty, "\(name): \(problems.prefix(5))")
  }
}
