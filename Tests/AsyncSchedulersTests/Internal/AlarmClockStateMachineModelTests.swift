import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers

/// Drives `AlarmClockStateMachine` with long seeded random sequences of the events its storage sends
/// (armings, stale armings, cancels, threads looking, sleeping, being signalled, firing, running an
/// engine's work inline and coming back, parking, time passing), playing the clock's threads and
/// semaphores itself, and checks after every step the invariants the clock relies on: exactly one thread
/// watches whenever an alarm other than the inline runner's own is armed, at most one runs work inline,
/// at most two exist, a sleeping watcher wakes by every armed alarm's window end (plus the OS's default
/// slack), nothing fires before its window opens, and a cancelled or stale arming never fires. At the
/// end it lets everything settle and checks that every effective arming fired exactly once.
@Suite("AlarmClockStateMachine model")
struct AlarmClockStateMachineModelTests {
  @Test("random event sequences keep every invariant of the watch duty and of firing")
  func randomSequences() async {
    let failure = await onModelThread { () -> String? in
      for seed in ModelTesting.seeds(600) {
        var model = AlarmModel(seed: seed)
        if let failure = model.run(events: 300) {
          return "seed \(seed) (replay with ASYNC_SCHEDULERS_SEED=\(seed)): \(failure)"
        }
      }
      return nil
    }
    #expect(failure == nil)
  }

  @Test("the watcher runs a lone alarm's work inline, and hands the duty on when another alarm is armed")
  func inlineHandOff() {
    var machine = AlarmClockStateMachine()
    let lone = AlarmRegistration(mayRunInline: true) { _ in }
    let other = AlarmRegistration { _ in }
    let at = { (microseconds: Int64) in SchedulerInstant(offset: .microseconds(microseconds)) }
    #expect(
      machine.arm(AlarmArming(registration: lone, earliest: at(10), latest: at(10), generation: 1)) == .startThread)
    var due: [AlarmRegistration] = []
    #expect(
      machine.look(now: at(0), returningFromInline: false, due: &due)
        == .timedWait(until: at(10), slack: .microseconds(50))
    )
    #expect(machine.look(now: at(10), returningFromInline: false, due: &due) == .fireInline)
    #expect(due.count == 1 && due[0] === lone && machine.watcher == .none)
    due.removeAll()
    // The inline runner's own engine re-arms: nobody else needs to watch it.
    #expect(machine.arm(AlarmArming(registration: lone, earliest: at(20), latest: at(20), generation: 2)) == .none)
    // Another scheduler arms: a new thread takes the duty.
    #expect(
      machine.arm(AlarmArming(registration: other, earliest: at(15), latest: at(15), generation: 1)) == .startThread)
    #expect(
      machine.look(now: at(11), returningFromInline: false, due: &due)
        == .timedWait(until: at(15), slack: .microseconds(50)))
    // The inline runner comes back: someone watches, so it parks.
    #expect(machine.look(now: at(12), returningFromInline: true, due: &due) == .park)
    #expect(machine.parked == 1 && machine.threads == 2)
  }

  @Test("the watcher does not run work inline when another alarm is armed, or for an engine that declines")
  func noInlineWhenOthersWait() {
    var machine = AlarmClockStateMachine()
    let inlineable = AlarmRegistration(mayRunInline: true) { _ in }
    let other = AlarmRegistration { _ in }
    let declining = AlarmRegistration { _ in }
    let at = { (microseconds: Int64) in SchedulerInstant(offset: .microseconds(microseconds)) }
    _ = machine.arm(AlarmArming(registration: inlineable, earliest: at(10), latest: at(10), generation: 1))
    _ = machine.arm(AlarmArming(registration: other, earliest: at(500), latest: at(500), generation: 1))
    var due: [AlarmRegistration] = []
    #expect(machine.look(now: at(10), returningFromInline: false, due: &due) == .fire)
    due.removeAll()
    _ = machine.arm(AlarmArming(registration: declining, earliest: at(20), latest: at(20), generation: 1))
    machine.cancel(other)
    #expect(machine.look(now: at(20), returningFromInline: false, due: &due) == .fire)
    #expect(machine.watcher == .looking)
  }
}

/// The reference model and the simulated threads of the clock.
private struct AlarmModel {
  enum Phase: Equatable {
    /// Started, or handed the duty: it looks next.
    case looking
    /// Waiting on the wake-up semaphore, until this instant (or with no deadline).
    case sleeping(until: Int64?)
    /// It looked and must fire these (by index), then look again.
    case firing([Int])
    /// Running the work of this registration inline; it looks again when done.
    case inline(Int)
    /// Waiting on the standby semaphore.
    case parked
  }

  struct Reference {
    /// The window of the effective arming not yet fired, if any.
    var pending: (earliest: Int64, latest: Int64)?
    /// The generation of the latest arming decided (the next one is one more).
    var decided: UInt64 = 0
    var cancelled = false
    var fired = 0
    var armings = 0
  }

  let seed: UInt64
  var random: SplitMix
  var machine = AlarmClockStateMachine()
  var registrations: [AlarmRegistration] = []
  var reference: [Reference] = []
  var threads: [Phase] = []
  /// Banked signals of the two semaphores.
  var wakeUpSignals = 0
  var standbySignals = 0
  var now: Int64 = 0
  var trace: [String] = []

  init(seed: UInt64) {
    self.seed = seed
    random = SplitMix(seed: seed)
    for index in 0..<4 {
      registrations.append(AlarmRegistration(mayRunInline: index < 2) { _ in })
      reference.append(Reference())
    }
  }

  func instant(_ microseconds: Int64) -> SchedulerInstant { SchedulerInstant(offset: .microseconds(microseconds)) }
  func index(of registration: AlarmRegistration) -> Int { registrations.firstIndex { $0 === registration }! }

  mutating func run(events: Int) -> String? {
    for _ in 0..<events {
      if let broken = step() ?? checkInvariants() {
        return broken + "\n  after: " + trace.suffix(14).joined(separator: "; ")
      }
    }
    return settle()
  }

  mutating func step() -> String? {
    switch random.next() % 10 {
    case 0, 1, 2: arm(Int(random.next() % 4), stale: random.next() % 8 == 0)
    case 3: if random.next() % 6 == 0 { cancel(Int(random.next() % 4)) }
    case 4, 5: now += Int64(random.next() % 120)
    default:
      guard !threads.isEmpty else { return nil }
      return advance(Int(random.next() % UInt64(threads.count)))
    }
    return nil
  }

  mutating func arm(_ index: Int, stale: Bool) {
    guard !reference[index].cancelled else { return }
    let earliest = now + Int64(random.next() % 400) - 20
    let latest = earliest + [0, 10, 100, 2_000][Int(random.next() % 4)]
    var generation = reference[index].decided + 1
    if stale && reference[index].decided > 0 {
      generation = reference[index].decided  // an arming that lost the race to a newer one
    } else {
      reference[index].decided = generation
      reference[index].pending = (earliest, latest)
      reference[index].armings += 1
    }
    trace.append("arm \(index) [\(earliest), \(latest)] gen \(generation)")
    perform(
      machine.arm(
        AlarmArming(
          registration: registrations[index], earliest: instant(earliest), latest: instant(latest),
          generation: generation)))
  }

  mutating func cancel(_ index: Int) {
    trace.append("cancel \(index)")
    reference[index].cancelled = true
    reference[index].pending = nil
    machine.cancel(registrations[index])
  }

  mutating func perform(_ action: AlarmClockStateMachine.ArmAction) {
    trace.append("-> \(action)")
    switch action {
    case .none: break
    case .wakeWatcher: wakeUpSignals += 1
    case .wakeParked: standbySignals += 1
    case .startThread: threads.append(.looking)
    }
  }

  /// Lets thread `thread` take its next step, if it can.
  mutating func advance(_ thread: Int) -> String? {
    switch threads[thread] {
    case .looking:
      return look(thread, returningFromInline: false)
    case .sleeping(let until):
      if wakeUpSignals > 0 {
        wakeUpSignals -= 1
      } else if let until, until <= now {
        // Timed out.
      } else {
        return nil
      }
      return look(thread, returningFromInline: false)
    case .firing(let due):
      // The arming each fire answers was checked when it was taken from the heap; the engine's own alarm
      // may have been armed again since (its fire then finds nothing due, as an early alarm does).
      trace.append("fire \(due) at \(now)")
      threads[thread] = .looking
      return nil
    case .inline(let index):
      // The inline engine may re-arm its own alarm while it runs (its worker stopping).
      if random.next() % 3 == 0 { arm(index, stale: false) }
      return look(thread, returningFromInline: true)
    case .parked:
      guard standbySignals > 0 else { return nil }
      standbySignals -= 1
      threads[thread] = .looking
      return nil
    }
  }

  mutating func fire(_ index: Int) -> String? {
    guard let pending = reference[index].pending else {
      return "registration \(index) fired at \(now) with no pending arming (cancelled \(reference[index].cancelled))"
    }
    if pending.earliest > now {
      return "registration \(index) fired at \(now), before its window [\(pending.earliest), …]"
    }
    reference[index].pending = nil
    reference[index].fired += 1
    return nil
  }

  mutating func look(_ thread: Int, returningFromInline: Bool) -> String? {
    var due: [AlarmRegistration] = []
    let step = machine.look(now: instant(now), returningFromInline: returningFromInline, due: &due)
    trace.append("thread \(thread) looks at \(now)\(returningFromInline ? " back from inline" : ""): \(step)")
    let indices = due.map(index(of:))
    // Taken from the heap: from here the fire answers that arming.
    for index in indices {
      if let failure = fire(index) { return failure }
    }
    switch step {
    case .fire:
      threads[thread] = .firing(indices)
    case .fireInline:
      guard indices.count == 1 else { return "inline with \(indices.count) due" }
      if !registrations[indices[0]].mayRunInline { return "inline offered to \(indices[0]), which declines" }
      threads[thread] = .inline(indices[0])
    case .timedWait(let until, _):
      if !due.isEmpty { return "sleeps with due alarms" }
      // The kernel may wake it anywhere from `until` to `until + slack`; the model wakes it from `until` on.
      threads[thread] = .sleeping(until: until.offset.microsecondsValue)
    case .idle:
      if !due.isEmpty { return "sleeps with due alarms" }
      threads[thread] = .sleeping(until: nil)
    case .park:
      threads[thread] = .parked
    }
    return nil
  }

  func checkInvariants() -> String? {
    let inlineThreads = threads.filter { if case .inline = $0 { return true } else { return false } }.count
    if inlineThreads > 1 { return "\(inlineThreads) threads run work inline" }
    if (inlineThreads == 1) != (machine.inline != nil) { return "inline thread and machine disagree" }
    if threads.count != machine.threads { return "\(threads.count) threads, machine counts \(machine.threads)" }
    if threads.count > 2 { return "\(threads.count) threads" }
    let parkedThreads = threads.filter { $0 == .parked }.count
    if parkedThreads != machine.parked + standbySignals {
      return "\(parkedThreads) parked threads, machine \(machine.parked), signals \(standbySignals)"
    }
    // Duty holders: threads looking, sleeping or firing, and parked threads already handed the duty.
    let holders =
      threads.filter {
        switch $0 {
        case .looking, .sleeping, .firing: return true
        case .inline, .parked: return false
        }
      }.count + standbySignals
    if holders != (machine.watcher == .none ? 0 : 1) {
      return "\(holders) threads hold the duty, machine watcher \(machine.watcher)"
    }
    let entries = machine.heap.entries
    let watched = entries.filter { $0.registration !== machine.inline }
    if !watched.isEmpty && machine.watcher == .none { return "alarms armed with nobody watching" }
    // The heap matches the reference's pending armings.
    for (index, reference) in reference.enumerated() {
      let entry = entries.first { $0.registration === registrations[index] }
      let pending = reference.pending.map { (instant($0.earliest), instant(Swift.max($0.earliest, $0.latest))) }
      if let entry {
        guard let pending, entry.deadline == pending.0, entry.latest == pending.1 else {
          return "registration \(index) armed at \(entry.deadline) but the reference has \(String(describing: pending))"
        }
      } else if pending != nil {
        return "registration \(index) has a pending arming but is not in the heap"
      }
    }
    // A sleeping watcher with no signal on its way wakes by every watched window's end (plus the default slack).
    if case .sleeping(let until) = machine.watcher, wakeUpSignals == 0, let minLatest = watched.map(\.latest).min() {
      if until > minLatest.advanced(by: AlarmClockStateMachine.minimumSlack) {
        return "the watcher sleeps until \(until), past an alarm's window end \(minLatest)"
      }
    }
    if machine.watcher == .idle && !watched.isEmpty && wakeUpSignals == 0 {
      return "the watcher sleeps with no deadline while alarms are armed"
    }
    return nil
  }

  /// Runs every thread and lets time pass until nothing is armed and no thread has anything left to do.
  mutating func settle() -> String? {
    var steps = 0
    while true {
      steps += 1
      if steps > 10_000 { return "did not settle: \(threads), heap \(machine.heap.count)" }
      var progressed = false
      for thread in threads.indices {
        let before = (threads[thread], wakeUpSignals, standbySignals)
        // An inline runner finishes without re-arming while settling.
        if case .inline = threads[thread] {
          if let failure = look(thread, returningFromInline: true) { return failure }
          progressed = true
        } else if let failure = advance(thread) {
          return failure
        }
        if before != (threads[thread], wakeUpSignals, standbySignals) { progressed = true }
        if let broken = checkInvariants() { return "while settling: " + broken }
      }
      if progressed { continue }
      // Nothing can move until a sleeping thread's deadline comes.
      let deadlines = threads.compactMap { phase -> Int64? in
        if case .sleeping(let until) = phase { return until } else { return nil }
      }
      guard let next = deadlines.min() else { break }
      now = Swift.max(now + 1, next)
    }
    for (index, reference) in reference.enumerated() where reference.pending != nil {
      return "registration \(index) never fired its arming \(reference.pending!)"
    }
    return nil
  }
}

extension Duration {
  fileprivate var microsecondsValue: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1_000_000 + attoseconds / 1_000_000_000_000
  }
}
