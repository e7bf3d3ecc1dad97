import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulersRxBridge

/// Drives `RxDelayStateMachine` (RxSwift's `delay`) with seeded random histories on a simulated clock:
/// values, a completion or an error arriving at random times (also while a drain is sending), drains run
/// when due as the storage runs them, a disposal now and then. Checked after every step against
/// RxSwift's rules written plainly: values and the completion are sent in arrival order, none lost or
/// twice, none before `dueTime` has passed since it arrived, one per drain; at most one drain pending; an
/// error is sent at once when no drain is sending, else right after the drain's event, dropping what
/// waits; nothing after the end.
@Suite("RxDelayStateMachine model")
struct RxDelayStateMachineModelTests {
  private typealias Machine = RxDelayStateMachine<Int>

  @Test("random histories send what RxSwift's delay sends, in order, on time, one per drain")
  func randomHistories() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(400) {
        var random = SplitMix(seed: seed)
        let dueTime = Duration.milliseconds(Int(random.next() % 4) * 50)
        var machine = Machine()
        var now = Duration.zero
        var pendingDrain: Duration?
        var waiting: [(arrival: Duration, event: String)] = []
        var upstreamEnded = false
        var ended = false
        var sent: [String] = []
        var fault: String?

        func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
          if !condition, fault == nil { fault = message() }
        }
        /// Performs a received action as the storage does.
        func perform(_ action: Machine.ReceivedAction) {
          switch action {
          case .none: break
          case .scheduleDrain:
            expect(pendingDrain == nil, "a second drain was scheduled while one was pending")
            pendingDrain = now + dueTime
          case .sendFailure:
            expect(!ended, "an error was sent after the end")
            sent.append("error")
            ended = true
            waiting = []
          }
        }
        func arrive(_ event: Event<Int>, label: String) {
          let action = machine.received(event, at: now)
          if case .error = event {
            upstreamEnded = true
          } else {
            if case .completed = event { upstreamEnded = true }
            if !ended { waiting.append((now, label)) }
          }
          perform(action)
        }
        /// Runs the pending drain as the storage does, maybe with an upstream event while it sends.
        func runDrain(interrupt: Bool) {
          pendingDrain = nil
          var action = machine.drainStarted()
          var sends = 0
          while true {
            switch action {
            case .stop: return
            case .sendFailure:
              expect(!ended, "an error was sent after the end")
              sent.append("error")
              ended = true
              waiting = []
              return
            case .send(let event):
              sends += 1
              expect(sends == 1, "a drain sent two events")
              expect(!ended, "an event was sent after the end")
              let label: String
              switch event {
              case .next(let value): label = "\(value)"
              case .completed: label = "completed"
              case .error: label = "error?"
              }
              expect(waiting.first?.event == label, "sent \(label), but \(waiting.first?.event ?? "nothing") was next")
              if let first = waiting.first {
                expect(now - first.arrival >= dueTime, "\(label) was sent before its due time")
                waiting.removeFirst()
              }
              sent.append(label)
              if case .completed = event {
                ended = true
                machine.dispose()
                return
              }
              if interrupt && !upstreamEnded {
                // An error that arrives while the drain sends goes out right after its event.
                arrive(.error(DelayFailure()), label: "error")
                expect(sent.last != "error", "an error arriving while a drain sends was sent inside it")
              }
              action = machine.sent()
            case .scheduleDrain(let arrival):
              expect(pendingDrain == nil, "a second drain was scheduled while one was pending")
              expect(waiting.first?.arrival == arrival, "the next drain is not for the oldest event waiting")
              pendingDrain = Swift.max(now, arrival + dueTime)
              return
            }
          }
        }

        var nextValue = 0
        for step in 0..<120 {
          let choice = random.next() % 10
          switch choice {
          case _ where choice < 3 && !upstreamEnded:
            nextValue += 1
            arrive(.next(nextValue), label: "\(nextValue)")
          case 3 where !upstreamEnded && random.next() % 4 == 0:
            arrive(.completed, label: "completed")
          case 4 where !upstreamEnded && random.next() % 8 == 0:
            arrive(.error(DelayFailure()), label: "error")
          case 5 where random.next() % 30 == 0:
            machine.dispose()
            ended = true
            waiting = []
            pendingDrain = nil
          case 6, 7:
            if let due = pendingDrain {
              now = Swift.max(now, due)
              runDrain(interrupt: random.next() % 6 == 0)
            }
          default:
            now += .milliseconds(Int(random.next() % 60))
          }
          // Invariants after every step.
          if !ended {
            expect(
              (pendingDrain != nil) == !waiting.isEmpty,
              "a drain pending: \(pendingDrain != nil), waiting: \(waiting.count)")
          }
          expect(sent.filter { $0 == "error" || $0 == "completed" }.count <= 1, "two ends were sent: \(sent)")
          if let fault {
            failures.record("seed \(seed), step \(step): \(fault) (sent \(sent.suffix(6)))")
            break
          }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }
}
private struct DelayFailure: Error {}
