import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers
@testable import AsyncSignals

/// Seeded random sequences of subscribers arriving and leaving, upstream handles arriving late and
/// upstream ends on the share state machine, against a reference model, with invariants after every
/// step: one connection at a time, and every connection's upstream subscription disposed exactly once
/// once it is over.
@Suite("Share state machine model")
struct ShareStateMachineModelTests {
  @Test("one connection at a time; each upstream handle is disposed exactly once when its connection is over")
  func share() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(ThreadSanitizerHooks.shared == nil ? 3_000 : 300) {
        var random = SplitMix(seed: seed)
        // Connections are numbered 1, 2, …; the handle of a connection is its number.
        var machine = ShareStateMachine<UInt64, UInt64>()
        var madeConnections: UInt64 = 0
        // The model: the current connection's number and subscribers.
        var current: (generation: UInt64, subscribers: Int)?
        var subscribers: [UInt64] = []  // the connection of each live subscriber
        var awaitingHandle: [UInt64] = []  // connections whose upstream subscribe has not returned
        var connected: Set<UInt64> = []
        var disposals: [UInt64: Int] = [:]
        var over: Set<UInt64> = []
        func dispose(_ handle: UInt64?) {
          if let handle { disposals[handle, default: 0] += 1 }
        }
        for step in 0..<60 {
          switch random.next() % 5 {
          case 0, 1:
            let action = machine.subscribe {
              madeConnections += 1
              return madeConnections
            }
            switch action {
            case .join(let connection, let generation):
              failures.check(
                current?.generation == generation && connection == generation,
                "seed \(seed) step \(step): joined \(generation), current \(String(describing: current))")
              current?.subscribers += 1
              subscribers.append(generation)
            case .connect(let connection, let generation):
              failures.check(current == nil, "seed \(seed) step \(step): connected while \(current!) is live")
              failures.check(connection == generation, "seed \(seed): connection \(connection) for \(generation)")
              current = (generation, 1)
              subscribers.append(generation)
              awaitingHandle.append(generation)
            }
          case 2:
            guard !awaitingHandle.isEmpty else { continue }
            let generation = awaitingHandle.remove(at: Int(random.next() % UInt64(awaitingHandle.count)))
            connected.insert(generation)
            let toDispose = machine.connected(generation, handle: generation)
            failures.check(
              (toDispose != nil) == over.contains(generation),
              "seed \(seed) step \(step): handle of \(generation) returned \(String(describing: toDispose)), over: \(over.contains(generation))"
            )
            dispose(toDispose)
          case 3:
            guard !subscribers.isEmpty else { continue }
            let generation = subscribers.remove(at: Int(random.next() % UInt64(subscribers.count)))
            let action = machine.unsubscribe(generation)
            var expectDisconnect = false
            if current?.generation == generation {
              current!.subscribers -= 1
              if current!.subscribers == 0 {
                current = nil
                over.insert(generation)
                expectDisconnect = true
              }
            }
            switch action {
            case .none: failures.check(!expectDisconnect, "seed \(seed) step \(step): no disconnect of \(generation)")
            case .disconnect(let handle):
              failures.check(expectDisconnect, "seed \(seed) step \(step): unexpected disconnect of \(generation)")
              failures.check(
                handle == (connected.contains(generation) ? generation : nil),
                "seed \(seed) step \(step): disconnect handle \(String(describing: handle))")
              dispose(handle)
            }
          default:
            // The upstream of a connection that has its handle or is still subscribing ends.
            let candidates = Array(connected.union(awaitingHandle)).sorted()
            guard !candidates.isEmpty else { continue }
            let generation = candidates[Int(random.next() % UInt64(candidates.count))]
            let action = machine.upstreamEnded(generation)
            let wasCurrent = current?.generation == generation
            if wasCurrent {
              current = nil
              over.insert(generation)
            }
            switch action {
            case .none: failures.check(!wasCurrent, "seed \(seed) step \(step): end of \(generation) ignored")
            case .disconnect(let handle):
              failures.check(wasCurrent, "seed \(seed) step \(step): end of old \(generation) acted on")
              dispose(handle)
            }
          }
          failures.check(
            machine.current?.generation == current?.generation && machine.current?.subscribers == current?.subscribers,
            "seed \(seed) step \(step): machine \(String(describing: machine.current)), model \(String(describing: current))"
          )
          for (handle, count) in disposals where count > 1 {
            failures.record("seed \(seed) step \(step): handle \(handle) disposed \(count) times")
          }
        }
        // Every connection over whose handle arrived was disposed once; a live one not at all.
        for generation in connected {
          let count = disposals[generation, default: 0]
          failures.check(
            count == (over.contains(generation) ? 1 : 0),
            "seed \(seed): connection \(generation) disposed \(count) times, over: \(over.contains(generation))")
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
  }
}
