import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers
@testable import AsyncSignals

/// Seeded random sequences on the sample and withLatestFrom state machines against reference models,
/// with invariants after every step: the posted events are exactly the model's, in its order, nothing
/// after the end, and no value sent twice.
@Suite("Sampling state machines model")
struct SamplingStateMachineModelTests {
  /// The rules `sample` is tested with: 0 each value once, 1 resending the latest, 2 RxSwift's, 3
  /// RxSwift's with a default value.
  static func rule(_ index: Int) -> SampleStateMachine<Int, Int, TestError>.Rule {
    switch index {
    case 0: .eachValueOnce
    case 1: .resendingLatest
    case 2: .rxSwift(defaultValue: nil)
    default: .rxSwift(defaultValue: -1)
    }
  }

  @Test(
    "sample: the newest value at each tick, at most once (or, resending, the latest at every tick; or RxSwift's rule, with its default value); the end as its rule says",
    arguments: 0..<4)
  func sample(ruleIndex: Int) async {
    let resendsLatest = ruleIndex == 1
    let rxSwift = ruleIndex >= 2
    let defaultValue: Int? = ruleIndex == 3 ? -1 : nil
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(ThreadSanitizerHooks.shared == nil ? 3_000 : 300) {
        var random = SplitMix(seed: seed)
        var machine = SampleStateMachine<Int, Int, TestError>(rule: Self.rule(ruleIndex))
        var expected: [String] = []
        var sent: [String] = []
        var pending: Int?
        var sourceFinished = false
        var triggerFinished = false
        var ended = false
        func end(_ event: String) {
          guard !ended else { return }
          expected.append(event)
          ended = true
          pending = nil
        }
        /// A tick under RxSwift's rule (a trigger value or the trigger's end).
        func rxSwiftTick() {
          guard !ended else { return }
          if let value = pending ?? defaultValue { expected.append("\(value)") }
          pending = nil
          if sourceFinished { end("finished") }
        }
        for step in 0..<40 {
          switch random.next() % 8 {
          case 0, 1, 2:
            // (A signal sends nothing after its end.)
            guard !sourceFinished else { continue }
            _ = machine.handle(.first(step))
            if !ended { pending = step }
          case 3, 4:
            guard !triggerFinished else { continue }
            _ = machine.handle(.second(step))
            if rxSwift {
              rxSwiftTick()
            } else {
              if !ended, let value = pending {
                expected.append("\(value)")
                if !resendsLatest { pending = nil }
              }
              if sourceFinished { end("finished") }
            }
          case 5:
            guard !sourceFinished else { continue }
            _ = machine.handle(.finished(first: true))
            if !ended {
              sourceFinished = true
              if !rxSwift, pending == nil || resendsLatest { end("finished") }
            }
          case 6:
            guard !triggerFinished else { continue }
            triggerFinished = true
            _ = machine.handle(.finished(first: false))
            if rxSwift {
              rxSwiftTick()
            } else {
              if !ended, !resendsLatest, let value = pending { expected.append("\(value)") }
              end("finished")
            }
          default:
            if random.next() % 4 == 0 {
              _ = machine.handle(.failed(TestError()))
              end("failed")
            }
          }
          sent += machine.outbox.drained { "\($0)" }
          failures.check(sent == expected, "seed \(seed) step \(step): sent \(sent), expected \(expected)")
          let values = sent.filter { $0 != "finished" && $0 != "failed" && $0 != "-1" }
          failures.check(
            resendsLatest || Set(values).count == values.count, "seed \(seed): a value sent twice: \(sent)")
        }
      }
    }
    #expect(failures.isEmpty, "rule \(ruleIndex): \(failures.prefix(5).joined(separator: "\n"))")
  }

  @Test("withLatestFrom: each value with the other's latest, none before it; the end only with the first")
  func withLatestFrom() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(ThreadSanitizerHooks.shared == nil ? 3_000 : 300) {
        var random = SplitMix(seed: seed)
        var machine = WithLatestFromStateMachine<Int, Int, TestError>()
        var expected: [String] = []
        var sent: [String] = []
        var latest: Int?
        var ended = false
        for step in 0..<40 {
          switch random.next() % 8 {
          case 0, 1, 2:
            _ = machine.handle(.first(step))
            if !ended, let latest { expected.append("\(step)-\(latest)") }
          case 3, 4:
            _ = machine.handle(.second(step))
            if !ended { latest = step }
          case 5:
            _ = machine.handle(.finished(first: false))
          case 6:
            _ = machine.handle(.finished(first: true))
            if !ended {
              expected.append("finished")
              ended = true
            }
          default:
            if random.next() % 4 == 0 {
              _ = machine.handle(.failed(TestError()))
              if !ended {
                expected.append("failed")
                ended = true
              }
            }
          }
          sent += machine.outbox.drained { "\($0.0)-\($0.1)" }
          failures.check(sent == expected, "seed \(seed) step \(step): sent \(sent), expected \(expected)")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
  }
}
