import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

/// Drives `TimerSourceState` (one `DispatchSource` timer of a scope on the virtual clock) with seeded
/// random histories of Dispatch calls and virtual timer fires, the timers kept as a scheduler keeps them
/// (added and dropped by the actions, fired earliest first). After every step, against a plain model of
/// Dispatch's rules:
/// - the handler runs exactly when Dispatch would run it: a fire of the current schedule while the
///   source is active, not suspended and not cancelled; a fire missed while suspended or inactive, once,
///   when it is resumed or activated;
/// - after `cancel`, nothing runs and no timer is added;
/// - at most one timer of the current schedule is pending, and a repeating one advances by its interval.
@Suite("TimerSourceState model")
struct TimerSourceStateModelTests {
  /// Dispatch's rules, written plainly.
  struct Model {
    var active = false
    var suspensions = 0
    var cancelled = false
    var handler: Int?
    var owed = false
    var canDeliver: Bool { active && suspensions == 0 && !cancelled }
  }

  @Test("random histories run the handler exactly when Dispatch would, and never after cancel")
  func randomHistories() async {
    let failures = await runModel { failures in
      for seed in ModelTesting.seeds(300) {
        var random = SplitMix(seed: seed)
        var state = TimerSourceState<Int>()
        var model = Model()
        // The scheduler's pending timers: (deadline, generation).
        var timers: [(deadline: Int64, generation: UInt64)] = []
        var now: Int64 = 0
        var delivered: [Int] = []
        func fail(_ message: String, _ step: Int) {
          failures.record("seed \(seed) step \(step) (printed to replay: ASYNC_SCHEDULERS_SEED=\(seed)): \(message)")
        }
        func perform(_ action: TimerSourceState<Int>.Action, _ step: Int) {
          switch action {
          case .none: break
          case .addTimer(let deadline, let generation):
            if model.cancelled { fail("a timer added after cancel", step) }
            if deadline < now { fail("a timer added in the past: \(deadline) < \(now)", step) }
            timers.removeAll()  // The storage drops the previous timer when it adds one.
            timers.append((deadline, generation))
          case .dropTimer:
            timers.removeAll()
          case .deliver(let handler):
            delivered.append(handler)
          case .deliverAndAddTimer(let handler, let deadline, let generation):
            delivered.append(handler)
            perform(.addTimer(deadline: deadline, generation: generation), step)
          }
        }
        for step in 0..<300 {
          delivered = []
          var expected: [Int] = []
          switch random.next() % 10 {
          case 0, 1:
            let deadline = now + Int64(random.next() % 50)
            let interval: Int64? = random.next() % 2 == 0 ? nil : Int64(random.next() % 20 + 1)
            perform(state.arm(deadline: deadline, interval: interval), step)
            if !model.cancelled { model.owed = false }
          case 2:
            let handler: Int? = random.next() % 4 == 0 ? nil : Int(step)
            state.setHandler(handler)
            model.handler = handler
          case 3:
            state.suspend()
            model.suspensions += 1
          case 4:
            perform(state.resume(), step)
            if !model.active { model.active = true } else if model.suspensions > 0 { model.suspensions -= 1 }
            if model.owed, model.canDeliver, let handler = model.handler {
              expected = [handler]
              model.owed = false
            }
          case 5:
            perform(state.activate(), step)
            model.active = true
            if model.owed, model.canDeliver, let handler = model.handler {
              expected = [handler]
              model.owed = false
            }
          case 6:
            if random.next() % 8 == 0 {
              perform(state.cancel(), step)
              model.cancelled = true
              model.owed = false
            } else {
              perform(state.disarm(), step)
              model.owed = false
            }
          default:
            // The scheduler fires its earliest timer (or a stale generation, which must do nothing).
            if let timer = timers.min(by: { $0.deadline < $1.deadline }) {
              timers.removeAll { $0.generation == timer.generation && $0.deadline == timer.deadline }
              now = max(now, timer.deadline)
              let previous = state.arming
              perform(state.fired(generation: timer.generation), step)
              if let interval = previous?.interval, let next = timers.first, next.deadline != timer.deadline + interval
              {
                fail("the next fire at \(next.deadline), expected \(timer.deadline + interval)", step)
              }
              if !model.cancelled, let handler = model.handler {
                if model.canDeliver { expected = [handler] } else { model.owed = true }
              }
            } else {
              perform(state.fired(generation: .max), step)
            }
          }
          if delivered != expected { fail("ran \(delivered), Dispatch would run \(expected)", step) }
          if timers.count > 1 { fail("\(timers.count) timers pending", step) }
          if state.isCancelled && (state.arming != nil || !timers.isEmpty) {
            fail("cancelled, but still armed or with a timer pending", step)
          }
          if state.canDeliver != model.canDeliver { fail("canDeliver \(state.canDeliver)", step) }
        }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
  }
}
