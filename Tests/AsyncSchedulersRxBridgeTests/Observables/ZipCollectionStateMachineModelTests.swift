import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Testing

@testable import AsyncSchedulersRxBridge

/// Drives `ZipCollectionStateMachine` (RxSwift's zip of a collection) with seeded random histories of
/// values, completions and errors from 1 to 4 sources, against RxSwift's rules written plainly: an
/// array of the first waiting value of each source as soon as every source has one; completion when
/// every source has completed, or when a value arrives alone while every other source has completed; the
/// first error fails it; nothing after the end. Checked after every step.
@Suite("ZipCollectionStateMachine model")
struct ZipCollectionStateMachineModelTests {
  @Test("random histories send exactly what RxSwift's zip of a collection sends")
  func randomHistories() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(300) {
        var random = SplitMix(seed: seed)
        let count = Int(random.next() % 4) + 1
        var machine = ZipCollectionStateMachine<Int>(count: count)
        var queues = Array(repeating: [Int](), count: count)
        var completed = Array(repeating: false, count: count)
        var ended = false
        var nextValue = 0
        for step in 0..<200 {
          let source = Int(random.next() % UInt64(count))
          var expected: [String] = []
          let action: ZipCollectionStateMachine<Int>.Action
          switch random.next() % 8 {
          case 0:
            action = machine.complete(source)
            if !ended && !completed[source] {
              completed[source] = true
              if completed.allSatisfy({ $0 }) {
                ended = true
                expected = ["completed"]
              }
            }
          case 1 where random.next() % 10 == 0:
            action = machine.fail(TestFailure())
            if !ended {
              ended = true
              expected = ["failed"]
            }
          default:
            // A completed source sends nothing more (the signal's contract): it completes again instead.
            if completed[source] {
              action = machine.complete(source)
              break
            }
            nextValue += 1
            action = machine.receive(nextValue, from: source)
            if !ended {
              queues[source].append(nextValue)
              if queues.allSatisfy({ !$0.isEmpty }) {
                expected = ["\(queues.map { $0.first! })"]
                for index in queues.indices { queues[index].removeFirst() }
              } else if completed.enumerated().allSatisfy({ $0.offset == source || $0.element }) {
                ended = true
                expected = ["completed"]
              }
            }
          }
          var sent: [String] = []
          if action.send {
            while let event = machine.outbox.next() {
              switch event {
              case .next(let values): sent.append("\(values)")
              case .finished: sent.append("completed")
              case .failed: sent.append("failed")
              }
            }
          }
          if sent != expected {
            failures.record(
              "seed \(seed) step \(step) (printed to replay: ASYNC_SCHEDULERS_SEED=\(seed)): sent \(sent), "
                + "RxSwift sends \(expected)")
          }
          if machine.ended != ended {
            failures.record("seed \(seed) step \(step): ended \(machine.ended), expected \(ended)")
          }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }
}

private struct TestFailure: Error {}
