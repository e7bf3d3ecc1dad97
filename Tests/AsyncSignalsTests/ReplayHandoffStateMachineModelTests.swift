import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSignals

/// Drives `ReplayHandoffStateMachine` with seeded random interleavings of its four events, as
/// `ReplayingObserver` and the subject call them: the subscribe command runs before or after the
/// subscribing call returns (the re-entrant case), live events arrive at any point after the command,
/// also between the events of a replay batch the subscribing thread is sending. After every step the
/// subscriber has seen a prefix of the replay followed by the live events, in order, none twice; at the
/// end it has seen all of them, and it is live.
@Suite("ReplayHandoffStateMachine model")
struct ReplayHandoffStateMachineModelTests {
  private typealias Machine = ReplayHandoffStateMachine<String>

  @Test("random interleavings deliver the replay, then every live event, in order, once")
  func randomInterleavings() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(500) {
        var random = SplitMix(seed: seed)
        var machine = Machine()
        let replay = (0..<Int(random.next() % 4)).map { "r\($0)" }
        let liveCount = Int(random.next() % 5)
        let commandFirst = random.next() % 4 != 0
        var seen: [String] = []
        var liveSent = 0
        var batch: [String] = []  // what the subscribing thread is sending, one event per step
        var callerDone = false
        var commandDone = false
        func perform(_ action: Machine.Action, byCaller: Bool) {
          switch action {
          case .none: if byCaller { callerDone = true }
          case .sendOne(let event): seen.append(event)
          case .send(let events) where byCaller && events.isEmpty: perform(machine.replayed(), byCaller: true)
          case .send(let events): if byCaller { batch = events } else { seen += events }
          }
        }
        var step = 0
        while !(callerDone && commandDone && batch.isEmpty && liveSent == liveCount) && step < 100 {
          step += 1
          switch random.next() % 4 {
          case 0 where !commandDone && (commandFirst || callerDone):
            commandDone = true
            perform(machine.commandRan(replay: replay), byCaller: false)
          case 1 where commandDone && liveSent < liveCount:
            liveSent += 1
            perform(machine.live("l\(liveSent)"), byCaller: false)
          case 2 where !batch.isEmpty:
            seen.append(batch.removeFirst())
            if batch.isEmpty { perform(machine.replayed(), byCaller: true) }
          case 3 where !callerDone && batch.isEmpty && (!commandFirst || commandDone):
            perform(machine.callerReturned(), byCaller: true)
          default:
            break
          }
          let expected = replay + (1...max(liveCount, 1)).prefix(liveCount).map { "l\($0)" }
          if seen.count > expected.count || Array(expected.prefix(seen.count)) != seen {
            failures.record("seed \(seed), step \(step): saw \(seen), expected a prefix of \(expected)")
            break
          }
        }
        let expected = replay + (1...max(liveCount, 1)).prefix(liveCount).map { "l\($0)" }
        if seen != expected || !machine.isLive {
          failures.record("seed \(seed): at the end saw \(seen) (live: \(machine.isLive)), expected \(expected)")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }
}
