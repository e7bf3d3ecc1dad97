import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers
@testable import AsyncSignals

/// Seeded random sequences on the combineLatest and zip state machines against reference models, with
/// invariants after every step: the posted events are exactly the model's, in its order, nothing after
/// the end.
@Suite("Combining state machines model")
struct CombineStateMachineModelTests {
  @Test(
    "combineLatest: a pair per value once both have one; the end by each rule (native, ReactiveObjC's, RxSwift's)")
  func combineLatest() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(ThreadSanitizerHooks.shared == nil ? 3_000 : 300) {
        var random = SplitMix(seed: seed)
        // The end rule: 0 native (a source finishing without a value ends it), 1 ReactiveObjC's (only
        // both finishing), 2 RxSwift's (both finishing, or a value after the other finished without one).
        let rule = Int(seed % 3)
        var machine = CombineLatestStateMachine<Int, Int, TestError>(
          finishesEarly: rule == 0, finishesOnValueWithoutPartner: rule == 2)
        var expected: [String] = []
        var sent: [String] = []
        var latest: (Int?, Int?) = (nil, nil)
        var finished = (false, false)
        var ended = false
        for step in 0..<40 {
          let first = random.next() % 2 == 0
          switch random.next() % 6 {
          case 0, 1, 2:
            _ = first ? machine.receiveA(step) : machine.receiveB(step)
            if !ended {
              if first { latest.0 = step } else { latest.1 = step }
              if let a = latest.0, let b = latest.1 {
                expected.append("\(a)-\(b)")
              } else if rule == 2 && (first ? finished.1 : finished.0) {
                expected.append("finished")
                ended = true
              }
            }
          case 3, 4:
            _ = machine.finish(first: first)
            if !ended {
              if first { finished.0 = true } else { finished.1 = true }
              if (finished.0 && finished.1) || (rule == 0 && (first ? latest.0 == nil : latest.1 == nil)) {
                expected.append("finished")
                ended = true
              }
            }
          default:
            _ = machine.fail(TestError())
            if !ended {
              expected.append("failed")
              ended = true
            }
          }
          sent += machine.outbox.drained { "\($0.0)-\($0.1)" }
          if sent != expected { failures.record("seed \(seed) rule \(rule): sent \(sent), expected \(expected)") }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
  }

  @Test("zip: pairs by index, the end once a finished side has nothing waiting, nothing after it")
  func zip() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(ThreadSanitizerHooks.shared == nil ? 3_000 : 300) {
        var random = SplitMix(seed: seed)
        var machine = ZipStateMachine<Int, Int, TestError>()
        var expected: [String] = []
        var sent: [String] = []
        var queues: ([Int], [Int]) = ([], [])
        var finished = (false, false)
        var ended = false
        for step in 0..<40 {
          let first = random.next() % 2 == 0
          switch random.next() % 6 {
          case 0, 1, 2:
            _ = first ? machine.receiveA(step) : machine.receiveB(step)
            if !ended {
              if first { queues.0.append(step) } else { queues.1.append(step) }
              if !queues.0.isEmpty && !queues.1.isEmpty {
                expected.append("\(queues.0.removeFirst())-\(queues.1.removeFirst())")
              }
            }
          case 3, 4:
            _ = machine.finish(first: first)
            if !ended { if first { finished.0 = true } else { finished.1 = true } }
          default:
            _ = machine.fail(TestError())
            if !ended {
              expected.append("failed")
              ended = true
            }
          }
          if !ended && ((finished.0 && queues.0.isEmpty) || (finished.1 && queues.1.isEmpty)) {
            expected.append("finished")
            ended = true
          }
          sent += machine.outbox.drained { "\($0.0)-\($0.1)" }
          if sent != expected { failures.record("seed \(seed): sent \(sent), expected \(expected)") }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
  }

  @Test("switchToLatest: only the current inner signal's events, the end once outer and inner finished")
  func switchToLatest() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(ThreadSanitizerHooks.shared == nil ? 3_000 : 300) {
        var random = SplitMix(seed: seed)
        var machine = SwitchStateMachine<Int, TestError>()
        var expected: [String] = []
        var sent: [String] = []
        var generations: [UInt64] = []
        var current: UInt64?
        var innerActive = false
        var outerFinished = false
        var ended = false
        for step in 0..<40 {
          switch random.next() % 8 {
          case 0:
            let generation = machine.switchInner()
            if !ended {
              guard let generation else {
                failures.record("seed \(seed): no generation while active")
                break
              }
              generations.append(generation)
              current = generation
              innerActive = true
            } else if generation != nil {
              failures.record("seed \(seed): switched after the end")
            }
          case 1, 2, 3, 4:
            guard !generations.isEmpty else { break }
            let generation = generations[Int(random.next() % UInt64(generations.count))]
            let kind = random.next() % 10
            let event: SignalEvent<Int, TestError> =
              kind == 0 ? .finished : kind == 1 ? .failed(TestError()) : .next(step)
            _ = machine.inner(event, generation: generation)
            if !ended && generation == current {
              switch event {
              case .next(let value): expected.append("\(value)")
              case .failed:
                expected.append("failed")
                ended = true
              case .finished:
                innerActive = false
                if outerFinished {
                  expected.append("finished")
                  ended = true
                }
              }
            }
          case 5, 6:
            _ = machine.outerFinish()
            if !ended {
              outerFinished = true
              if !innerActive {
                expected.append("finished")
                ended = true
              }
            }
          default:
            guard random.next() % 4 == 0 else { break }
            _ = machine.outerFail(TestError())
            if !ended {
              expected.append("failed")
              ended = true
            }
          }
          sent += machine.outbox.drained { "\($0)" }
          if sent != expected { failures.record("seed \(seed): sent \(sent), expected \(expected)") }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
  }
}
