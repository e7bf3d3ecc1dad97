import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Testing

/// Seeded random event sequences on the two pure state machines behind signals, against reference
/// models, with invariants checked after every step.
@Suite("Signal state machines model")
struct SignalStateMachineModelTests {
  @Test(
    "the observer's grammar: deliveries in acceptance order, nothing after the end or disposal, resources released once"
  )
  func observerGrammar() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(5_000) {
        var random = SplitMix(seed: seed)
        var machine = SignalObserverStateMachine<Int>()
        var accepted: [Int] = []  // events accepted, in order (negative: terminal)
        var delivered: [Int] = []
        var delivering: Int?  // the event being delivered
        var releases = 0
        var attached = false
        var disposed = false
        var terminalDelivered = false
        var next = 1
        func fail(_ message: String) {
          failures.record("seed \(seed): \(message); accepted \(accepted), delivered \(delivered)")
        }
        for _ in 0..<60 {
          switch random.next() % 6 {
          case 0, 1, 2:
            let terminal = random.next() % 8 == 0
            let event = terminal ? -next : next
            next += 1
            switch machine.send(event, isTerminal: terminal) {
            case .drop:
              if !disposed && !accepted.contains(where: { $0 < 0 }) { fail("a send was dropped while active") }
            case .deliver:
              if delivering != nil { fail("two deliverers") }
              accepted.append(event)
              delivering = event
            case .queued:
              if delivering == nil { fail("queued with no deliverer") }
              accepted.append(event)
            }
          case 3:
            guard let event = delivering else { continue }
            if !disposed { delivered.append(event) }
            if event < 0 && !disposed { terminalDelivered = true }
            let (following, release) = machine.delivered()
            if release != nil { releases += 1 }
            delivering = following
          case 4 where !attached:
            attached = true
            if machine.attach(AnyDisposable {}) != nil { releases += 1 }
          case 5:
            let (release, first, dropped) = machine.dispose()
            if release != nil { releases += 1 }
            // The queued events are handed back to be released outside the lock, all of them, once.
            let queued = first ? accepted.count - delivered.count - (delivering == nil ? 0 : 1) : 0
            if dropped.count != queued { fail("dispose handed back \(dropped.count) queued events, not \(queued)") }
            if first == disposed { fail("dispose reported first \(first) twice") }
            disposed = true
          default:
            break
          }
          // Deliveries are a prefix of the accepted events, and nothing follows a terminal event.
          if Array(accepted.prefix(delivered.count)) != delivered { fail("delivered out of order") }
          if let end = delivered.firstIndex(where: { $0 < 0 }), end != delivered.count - 1 {
            fail("an event after the end")
          }
          if releases > 1 { fail("resources released \(releases) times") }
          if attached && releases == 0 && (disposed || (terminalDelivered && delivering == nil)) {
            fail("resources not released after the end")
          }
          if releases == 1 && !(disposed || terminalDelivered) { fail("resources released while active") }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  @Test(
    "the iterator's buffer: values in order per policy, the end after them, cancellation ends it, the subscription released once"
  )
  func iteratorBuffer() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(5_000) {
        var random = SplitMix(seed: seed)
        let policies: [SignalBuffering] = [.unbounded, .bufferingNewest(2), .bufferingOldest(2)]
        let policy = policies[Int(random.next() % 3)]
        var machine = SignalIteratorStateMachine<Int, TestError, Int, Int>(policy: policy)
        var sent: [Int] = []
        var received: [Int] = []
        var waiting = false
        var ended = false
        var released = 0
        var subscribed = false
        var cancelled = false
        var next = 1
        func fail(_ message: String) {
          failures.record("seed \(seed) \(policy): \(message); sent \(sent), received \(received)")
        }
        for _ in 0..<50 {
          switch random.next() % 6 {
          case 0:
            guard !waiting else { continue }
            switch machine.next(0) {
            case .subscribe:
              if subscribed { fail("subscribed twice") }
              subscribed = true
              if machine.subscribed(99) != nil { released += 1 }
            case .resume(.success(let value?)):
              received.append(value)
            case .resume(.success(nil)), .resume(.failure):
              ended = true
            case .suspend:
              waiting = true
            }
          case 1, 2:
            guard subscribed else { continue }
            sent.append(next)
            switch machine.receive(next) {
            case .resume:
              if !waiting { fail("resumed a continuation nobody waits on") }
              waiting = false
              received.append(next)
            case .evicted(let evicted):
              guard case .bufferingNewest = policy else {
                fail("evicted \(evicted) under \(policy)")
                break
              }
              if evicted >= next || received.contains(evicted) { fail("evicted \(evicted), not a buffered value") }
            case .none:
              break
            }
            next += 1
          case 3:
            guard subscribed else { continue }
            if let (_, result) = machine.receive(terminal: random.next() % 2 == 0 ? .finished : .failed(TestError())) {
              if !waiting { fail("ended a continuation nobody waits on") }
              waiting = false
              ended = true
              if case .success(let value?) = result { fail("terminal resumed with \(value)") }
            }
          case 4:
            let (continuation, subscription, _) = machine.cancel()
            cancelled = true
            if continuation != nil {
              if !waiting { fail("cancel resumed a continuation nobody waits on") }
              waiting = false
              ended = true
            }
            if subscription != nil { released += 1 }
          default:
            break
          }
          // Values come in the order sent, none twice; unbounded loses none (before cancellation).
          if received != received.sorted() || Set(received).count != received.count {
            fail("values out of order or twice")
          }
          if !Set(received).isSubset(of: Set(sent)) { fail("a value never sent") }
          if released > 1 { fail("subscription released twice") }
          if ended && waiting { fail("waiting after the end") }
        }
        if case .unbounded = policy, !cancelled {
          // Drain what is buffered: every value sent arrives.
          while true {
            guard !waiting, case .resume(.success(let value?)) = machine.next(0) else { break }
            received.append(value)
          }
          if received != sent.filter({ _ in true }).prefix(received.count).map({ $0 }) {
            fail("unbounded lost or reordered values")
          }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }
}
