import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers
@testable import AsyncSignals

/// Seeded random sequences on the pure state machines of the time operators (delay, debounce,
/// throttle, collect), against reference models of their documented semantics, with invariants after
/// every step. The sending is simulated as the storages do it, including a sender that is still busy
/// (another thread) while more decisions post: what reaches the subscriber must be exactly the model's
/// events, in the model's order: no value lost at the end, none after it, none twice.
@Suite("Time operator state machines model")
struct TimeOperatorStateMachineModelTests {
  @Test("delay: due events in deadline order, a failure at once dropping the rest, nothing after it")
  func delay() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(ThreadSanitizerHooks.shared == nil ? 3_000 : 300) {
        var random = SplitMix(seed: seed)
        var machine = DelayStateMachine<SignalEvent<Int, TestError>>()
        var sender = SimulatedSender<SignalEvent<Int, TestError>>()
        var expected: [SignalEvent<Int, TestError>] = []
        var waiting: [(SignalEvent<Int, TestError>, Int)] = []
        var failed = false
        var now = 0
        let delay = Int(random.next() % 3)
        var next = 1
        func fail(_ message: String) { failures.record("seed \(seed): \(message); expected \(expected)") }
        for _ in 0..<60 {
          now += Int(random.next() % 3)
          switch random.next() % 5 {
          case 0, 1:
            let event: SignalEvent<Int, TestError> = random.next() % 10 == 0 ? .finished : .next(next)
            next += 1
            let wasArmed = machine.armed
            let action = machine.add(event, at: instant(now + delay))
            if !failed { waiting.append((event, now + delay)) }
            if (action != .none) == (wasArmed || failed) { fail("add armed \(action) while armed \(wasArmed)") }
          case 2, 3:
            let action = machine.fire(now: instant(now))
            let due = waiting.prefix { $0.1 <= now }
            expected += due.map(\.0)
            waiting.removeFirst(due.count)
            if action.rearm != waiting.first.map({ instant($0.1) }) {
              fail("re-armed for \(String(describing: action.rearm))")
            }
            sender.decided(action.send, &machine, failures: failures, seed: seed)
          default:
            let result = machine.fail(.failed(TestError()))
            if !failed {
              expected.append(.failed(TestError()))
              waiting.removeAll()
            }
            failed = true
            sender.decided(result.send, &machine, failures: failures, seed: seed)
          }
          if machine.armed != !waiting.isEmpty && !failed {
            fail("armed \(machine.armed) with \(waiting.count) waiting")
          }
          sender.step(&machine, random: &random)
        }
        sender.finish(&machine)
        if sender.sent.map({ "\($0)" }) != expected.map({ "\($0)" }) { fail("sent \(sender.sent)") }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  @Test("debounce: the newest value after its quiet time, the held one at the end, nothing lost or after the end")
  func debounce() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(ThreadSanitizerHooks.shared == nil ? 3_000 : 300) {
        var random = SplitMix(seed: seed)
        var machine = DebounceStateMachine<Int, TestError>()
        var sender = SimulatedSender<SignalEvent<Int, TestError>>()
        var expected: [SignalEvent<Int, TestError>] = []
        var held: (value: Int, due: Int, generation: UInt64)?
        var timers: [UInt64] = []
        var ended = false
        var now = 0
        var next = 1
        func fail(_ message: String) { failures.record("seed \(seed): \(message); expected \(expected)") }
        for _ in 0..<60 {
          now += Int(random.next() % 3)
          switch random.next() % 8 {
          case 0, 1, 2:
            let due = now + Int(random.next() % 4)
            let action = machine.replace(next, now: instant(now), due: instant(due))
            if !ended {
              if let previous = held, previous.due <= now { expected.append(.next(previous.value)) }
              guard let generation = action.arm else {
                fail("no timer armed for a new value")
                break
              }
              held = (next, due, generation)
              timers.append(generation)
              if machine.attach(ScheduledAction {}, for: generation) != nil { fail("a live timer was refused") }
            }
            next += 1
            sender.decided(action.send, &machine, failures: failures, seed: seed)
          case 3, 4:
            guard !timers.isEmpty else { break }
            let generation = timers.remove(at: Int(random.next() % UInt64(timers.count)))
            let send = machine.fire(generation)
            if let current = held, current.generation == generation {
              expected.append(.next(current.value))
              held = nil
            }
            sender.decided(send, &machine, failures: failures, seed: seed)
          case 5:
            let action = machine.sendNow(next)
            if !ended {
              // The held value is dropped (ReactiveObjC's rule).
              expected.append(.next(next))
              held = nil
            }
            next += 1
            sender.decided(action.send, &machine, failures: failures, seed: seed)
          case 6:
            let finishing = random.next() % 2 == 0
            let event: SignalEvent<Int, TestError> = finishing ? .finished : .failed(TestError())
            let action = machine.end(event)
            if !ended {
              if finishing, let current = held { expected.append(.next(current.value)) }
              expected.append(event)
              held = nil
              ended = true
            }
            sender.decided(action.send, &machine, failures: failures, seed: seed)
          default:
            guard random.next() % 4 == 0 else { break }
            _ = machine.drop()
            held = nil
            ended = true
          }
          if (machine.value == nil) != (held == nil) {
            fail("holds \(String(describing: machine.value)), model \(String(describing: held))")
          }
          sender.step(&machine, random: &random)
        }
        sender.finish(&machine)
        if sender.sent.map({ "\($0)" }) != expected.map({ "\($0)" }) { fail("sent \(sender.sent)") }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  @Test("throttle: the first value of each window, the latest held to its end and at the finish, nothing after it")
  func throttle() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(ThreadSanitizerHooks.shared == nil ? 3_000 : 300) {
        var random = SplitMix(seed: seed)
        let latest = seed % 2 == 0
        // Rx's end rule in half the histories: a finish with a value held waits for the window's end.
        let endsAfterWindow = seed % 4 < 2
        var machine = ThrottleStateMachine<Int, TestError>(endsAfterWindow: endsAfterWindow)
        var finishWaits = false
        var sender = SimulatedSender<SignalEvent<Int, TestError>>()
        var expected: [SignalEvent<Int, TestError>] = []
        var open: UInt64?
        var held: Int?
        var timers: [UInt64] = []
        var ended = false
        var next = 1
        func fail(_ message: String) { failures.record("seed \(seed): \(message); expected \(expected)") }
        func armed(_ window: UInt64?) {
          guard let window else { return }
          timers.append(window)
          if machine.attach(ScheduledAction {}, for: window) != nil { fail("a live window's timer was refused") }
        }
        for _ in 0..<60 {
          switch random.next() % 6 {
          case 0, 1, 2:
            let action = machine.receive(next, latest: latest)
            if !ended && !finishWaits {
              if open == nil {
                expected.append(.next(next))
                open = action.arm
                if action.arm == nil { fail("no window opened") }
              } else if latest {
                held = next
              }
            }
            armed(action.arm)
            next += 1
            sender.decided(action.send, &machine, failures: failures, seed: seed)
          case 3, 4:
            guard !timers.isEmpty else { break }
            let window = timers.remove(at: Int(random.next() % UInt64(timers.count)))
            let action = machine.windowEnded(window)
            if let current = open, current == window, !ended {
              if let value = held {
                expected.append(.next(value))
                held = nil
                open = action.arm
              } else {
                open = nil
              }
              if finishWaits {
                expected.append(.finished)
                finishWaits = false
                ended = true
                open = nil
              }
            }
            armed(action.arm)
            sender.decided(action.send, &machine, failures: failures, seed: seed)
          default:
            let finishing = random.next() % 2 == 0
            let event: SignalEvent<Int, TestError> = finishing ? .finished : .failed(TestError())
            let action = machine.end(event)
            if !ended && !finishWaits {
              if endsAfterWindow, finishing, held != nil, open != nil {
                finishWaits = true
              } else {
                if finishing, let value = held { expected.append(.next(value)) }
                expected.append(event)
                ended = true
                held = nil
                open = nil
              }
            }
            sender.decided(action.send, &machine, failures: failures, seed: seed)
          }
          if machine.held != held {
            fail("holds \(String(describing: machine.held)), model \(String(describing: held))")
          }
          sender.step(&machine, random: &random)
        }
        sender.finish(&machine)
        if sender.sent.map({ "\($0)" }) != expected.map({ "\($0)" }) { fail("sent \(sender.sent)") }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }

  @Test("collect(every:): each batch once when its timer fires, the last one at the finish, nothing after it")
  func collect() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(ThreadSanitizerHooks.shared == nil ? 3_000 : 300) {
        var random = SplitMix(seed: seed)
        var machine = CollectStateMachine<Int, TestError>()
        var sender = SimulatedSender<SignalEvent<[Int], TestError>>()
        var expected: [SignalEvent<[Int], TestError>] = []
        var batch: [Int] = []
        var current: UInt64?
        var timers: [UInt64] = []
        var ended = false
        var next = 1
        func fail(_ message: String) { failures.record("seed \(seed): \(message); expected \(expected)") }
        for _ in 0..<60 {
          switch random.next() % 6 {
          case 0, 1, 2:
            let arm = machine.add(next)
            if !ended {
              batch.append(next)
              if (arm != nil) != (batch.count == 1) {
                fail("armed \(String(describing: arm)) for a batch of \(batch.count)")
              }
              if let arm {
                current = arm
                timers.append(arm)
                if machine.attach(ScheduledAction {}, for: arm) != nil { fail("a live batch's timer was refused") }
              }
            }
            next += 1
          case 3, 4:
            guard !timers.isEmpty else { break }
            let id = timers.remove(at: Int(random.next() % UInt64(timers.count)))
            let send = machine.fire(id)
            if id == current, !batch.isEmpty {
              expected.append(.next(batch))
              batch = []
              current = nil
            }
            sender.decided(send, &machine, failures: failures, seed: seed)
          default:
            let finishing = random.next() % 2 == 0
            let event: SignalEvent<[Int], TestError> = finishing ? .finished : .failed(TestError())
            let action = machine.end(event)
            if !ended {
              if finishing, !batch.isEmpty { expected.append(.next(batch)) }
              expected.append(event)
              batch = []
              ended = true
            }
            sender.decided(action.send, &machine, failures: failures, seed: seed)
          }
          if machine.values != batch { fail("collects \(machine.values), model \(batch)") }
          sender.step(&machine, random: &random)
        }
        sender.finish(&machine)
        if sender.sent.map({ "\($0)" }) != expected.map({ "\($0)" }) { fail("sent \(sender.sent)") }
      }
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
  }
}

private func instant(_ milliseconds: Int) -> SchedulerInstant {
  SchedulerInstant(offset: .milliseconds(milliseconds))
}

/// The storages' sending, simulated: a decision that says "send" makes the caller the sender; it may
/// send everything at once, or stall partway (as a thread preempted between two sends), while later
/// decisions post behind it and must not become senders themselves.
private struct SimulatedSender<Event> {
  var sent: [Event] = []
  /// Whether a simulated thread holds the sender role and has not finished sending.
  var busy = false

  /// A decision returned `send`; checks that it does so exactly when nobody is sending.
  mutating func decided<State: OutboxState>(
    _ send: Bool, _ state: inout State, failures: ModelFailures, seed: UInt64
  ) where State.Output == Event {
    if send && busy { failures.record("seed \(seed): two senders") }
    if send { busy = true }
  }

  /// The sender sends some of what is posted (maybe all, maybe none yet).
  mutating func step<State: OutboxState>(_ state: inout State, random: inout SplitMix) where State.Output == Event {
    guard busy else { return }
    var count = Int(random.next() % 3)
    while count > 0 {
      guard let event = state.outbox.next() else {
        busy = false
        return
      }
      sent.append(event)
      count -= 1
    }
  }

  /// The sender finishes.
  mutating func finish<State: OutboxState>(_ state: inout State) where State.Output == Event {
    guard busy else { return }
    while let event = state.outbox.next() { sent.append(event) }
    busy = false
  }
}
