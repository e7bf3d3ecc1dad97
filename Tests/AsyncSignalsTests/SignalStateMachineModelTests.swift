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
    "the observer's grammar: deliveries in send order, each sender delivers its own event, nothing after the end, resources released once"
  )
  func observerGrammar() async {
    final class Turn {}
    enum Sender {
      case idle
      case delivering(Int)
      case waiting(Int, Turn)
    }
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(5_000) {
        var random = SplitMix(seed: seed)
        var machine = SignalObserverStateMachine<Int, Turn, Int>()
        var threads: [Sender] = [.idle, .idle, .idle]
        var accepted: [Int] = []  // events accepted, in order (negative: terminal)
        var delivered: [Int] = []
        var releases = 0
        var attached = false
        var disposed = false
        var terminalDelivered = false
        var next = 1
        func fail(_ message: String) {
          failures.record("seed \(seed): \(message); accepted \(accepted), delivered \(delivered)")
        }
        func send(from thread: Int) {
          let terminal = random.next() % 8 == 0
          let event = terminal ? -next : next
          next += 1
          let wasDelivering = machine.isDelivering
          switch machine.send(event, isTerminal: terminal, from: thread, makeWaiter: { Turn() }) {
          case .drop:
            if !disposed && !accepted.contains(where: { $0 < 0 }) { fail("a send was dropped while active") }
          case .deliver:
            if wasDelivering { fail("two deliverers") }
            accepted.append(event)
            threads[thread] = .delivering(event)
          case .queued:
            guard case .delivering = threads[thread] else {
              fail("thread \(thread) queued re-entrantly without delivering")
              return
            }
            accepted.append(event)
          case .wait(let turn):
            if case .delivering = threads[thread] { fail("the deliverer waits for itself") }
            accepted.append(event)
            threads[thread] = .waiting(event, turn)
          }
        }
        for _ in 0..<80 {
          let thread = Int(random.next() % 3)
          switch random.next() % 7 {
          case 0, 1, 2:
            switch threads[thread] {
            case .idle, .delivering: send(from: thread)  // from a handler, when delivering
            case .waiting: break  // blocked
            }
          case 3, 4:
            guard case .delivering(let event) = threads[thread] else { continue }
            if !disposed { delivered.append(event) }
            if event < 0 && !disposed { terminalDelivered = true }
            switch machine.delivered() {
            case .deliver(let following):
              threads[thread] = .delivering(following)
            case .handOff(let turn):
              threads[thread] = .idle
              guard
                let woken = threads.firstIndex(where: { if case .waiting(_, let t) = $0 { t === turn } else { false } })
              else {
                fail("handed the turn to nobody")
                break
              }
              guard case .waiting(let own, _) = threads[woken] else { break }
              if !machine.turnTaken(by: woken) { fail("thread \(woken) woke without the turn") }
              threads[woken] = .delivering(own)
            case .end(let release):
              if release != nil { releases += 1 }
              threads[thread] = .idle
            }
          case 5 where !attached:
            attached = true
            if machine.attach(AnyDisposable {}) != nil { releases += 1 }
          case 6:
            let disposal = machine.dispose()
            if disposal.release != nil { releases += 1 }
            if disposal.first == disposed { fail("dispose reported first \(disposal.first) twice") }
            disposed = true
            for turn in disposal.waiters {
              guard
                let woken = threads.firstIndex(where: { if case .waiting(_, let t) = $0 { t === turn } else { false } })
              else {
                fail("woke a waiter nobody holds")
                continue
              }
              if machine.turnTaken(by: woken) { fail("a woken waiter delivers after disposal") }
              threads[woken] = .idle
            }
          default:
            break
          }
          // Deliveries are a prefix of the accepted events, and nothing follows a terminal event.
          if Array(accepted.prefix(delivered.count)) != delivered { fail("delivered out of order") }
          if let end = delivered.firstIndex(where: { $0 < 0 }), end != delivered.count - 1 {
            fail("an event after the end")
          }
          let deliverers = threads.indices.filter { if case .delivering = threads[$0] { true } else { false } }
          if deliverers.count > 1 { fail("threads \(deliverers) deliver at once") }
          if let only = deliverers.first, machine.deliverer != only, !disposed {
            fail("the machine names another deliverer")
          }
          if disposed, threads.contains(where: { if case .waiting = $0 { true } else { false } }) {
            fail("a sender still waits after disposal")
          }
          if releases > 1 { fail("resources released \(releases) times") }
          let idle = threads.allSatisfy { if case .idle = $0 { true } else { false } }
          if attached && releases == 0 && (disposed || (terminalDelivered && idle)) {
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
