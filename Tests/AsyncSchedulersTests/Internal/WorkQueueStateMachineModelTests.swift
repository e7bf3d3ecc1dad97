import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Testing

@testable import AsyncSchedulers

/// Drives `WorkQueueStateMachine` with long seeded random sequences of the events its storage sends
/// (jobs, workers arriving, running, waiting and coming back, timers with leeway added and disposed,
/// the alarm, inline runs, time passing), playing the workers itself, in the efficient mode (workers
/// never wait) and the low-latency mode, and checks after every step the invariants the engine relies
/// on. At the end it lets everything settle and checks that every job ran exactly once and every timer
/// fired exactly once, never early.
@Suite("WorkQueueStateMachine model")
struct WorkQueueStateMachineModelTests {
  @Test(
    "random event sequences keep every invariant, for serial and concurrent widths, efficient or low-latency",
    arguments: [1, 2, 3], [false, true])
  func randomSequences(width: Int, lowLatency: Bool) async {
    let failure = await onModelThread { () -> String? in
      for seed in ModelTesting.seeds(400) {
        var model = Model(width: width, lowLatency: lowLatency, seed: seed)
        if let failure = model.run(events: 250) {
          return
            "width \(width), lowLatency \(lowLatency), seed \(seed) (replay with ASYNC_SCHEDULERS_SEED=\(seed)): \(failure)"
        }
      }
      return nil
    }
    #expect(failure == nil)
  }
}

/// The reference model and the simulated workers.
private struct Model {
  enum Worker {
    /// Submitted; has not asked for work yet.
    case starting
    /// Running what it took.
    case running([Work])
    /// Watching the signal until `until`; `signalled` once new work or an earlier timer was announced.
    case waiting(until: Int64, signalled: Bool)
  }

  /// A simulated worker and the state the machine keeps for it.
  struct SimulatedWorker {
    var phase: Worker
    var state = WorkQueueStateMachine.Worker()
  }

  struct TimerRecord {
    let id: Int
    let deadline: Int64
    /// The deadline plus the leeway.
    let latest: Int64
    let handle: ScheduledTimer?
    var disposed = false
    var repeating: Duration?
    /// How many times it had run when it was disposed.
    var runsAtDispose = 0
  }

  let width: Int
  let punctuality: WorkQueueStateMachine.Punctuality
  let seed: UInt64
  var random: SplitMix
  var machine: WorkQueueStateMachine
  /// Microseconds on the simulated clock.
  var now: Int64 = 0
  var workers: [SimulatedWorker] = []
  var inline = false
  var nextID = 0
  var jobs = Set<Int>()
  var timers: [Int: TimerRecord] = [:]
  let ran = RunLog()
  /// Runs per job or timer id, and how many entries of `ran` they count.
  var runs: [Int: Int] = [:]
  var counted = 0
  var clock: ClockBox
  var trace: [String] = []
  /// Broken invariants found while applying a step.
  var failures: [String] = []

  /// What ran, and when; bodies append to it synchronously on the model's thread.
  final class RunLog: @unchecked Sendable {
    // Why @unchecked Sendable: the model runs on one thread; bodies run synchronously inside it.
    var values: [(id: Int, at: Int64)] = []
    func append(_ entry: (id: Int, at: Int64)) { values.append(entry) }
  }

  /// Lets timer bodies read the simulated time.
  final class ClockBox: @unchecked Sendable {
    // Why @unchecked Sendable: the model runs on one thread; bodies run synchronously inside it.
    var now: Int64 = 0
  }

  init(width: Int, lowLatency: Bool, seed: UInt64) {
    self.width = width
    self.punctuality =
      lowLatency ? .lowLatency(timerWindow: .microseconds(100), linger: .microseconds(20)) : .efficient
    self.seed = seed
    random = SplitMix(seed: seed)
    machine = WorkQueueStateMachine(width: width)
    clock = ClockBox()
  }

  func instant(_ microseconds: Int64) -> SchedulerInstant { SchedulerInstant(offset: .microseconds(microseconds)) }

  mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

  // MARK: Running

  mutating func run(events: Int) -> String? {
    for _ in 0..<events {
      step()
      if let broken = checkInvariants() { return broken + "\n  after: " + trace.suffix(12).joined(separator: "; ") }
    }
    return settle()
  }

  mutating func step() {
    switch random.next() % 11 {
    case 0, 1: enqueue()
    case 2: addTimer()
    case 3: disposeTimer()
    case 4, 5: advanceWorker()
    case 6: advanceWorker()
    case 7: advanceTime(by: Int64(random.next() % 300))
    case 8: fireAlarmIfDue()
    case 9: inlineRun()
    default: advanceTime(by: Int64(random.next() % 30))
    }
  }

  mutating func perform(_ action: WorkQueueStateMachine.WorkerAction) {
    if action.wake {
      for index in workers.indices {
        if case .waiting(let until, _) = workers[index].phase {
          workers[index].phase = .waiting(until: until, signalled: true)
        }
      }
    }
    for _ in 0..<action.start { workers.append(SimulatedWorker(phase: .starting)) }
  }

  mutating func enqueue() {
    let id = nextID
    nextID += 1
    jobs.insert(id)
    let log = ran
    let clock = clock
    trace.append("enqueue \(id)")
    perform(machine.enqueue(.closure { log.append((id, clock.now)) }))
  }

  mutating func addTimer() {
    let id = nextID
    nextID += 1
    // Deadlines already past, inside the window, or later.
    let deadline = now + Int64(random.next() % 600) - 50
    let log = ran
    let clock = clock
    let body: @Sendable () -> Void = { log.append((id, clock.now)) }
    let kind = random.next() % 3
    let maySpin = chance(70)
    // No leeway, a little, or a lot (negative counts as zero).
    let leeway = [Int64(0), 0, Int64(random.next() % 50), Int64(random.next() % 400), -5][Int(random.next() % 5)]
    let latest = deadline + Swift.max(leeway, 0)
    trace.append("timer \(id) at \(deadline) leeway \(leeway) kind \(kind)")
    let payload: TimerHeap.Payload
    switch kind {
    case 0:
      payload = .closure(body)
      timers[id] = TimerRecord(id: id, deadline: deadline, latest: latest, handle: nil)
    case 1:
      let handle = ScheduledTimer(owner: nil, body)
      payload = .timer(handle)
      timers[id] = TimerRecord(id: id, deadline: deadline, latest: latest, handle: handle)
    default:
      let interval = Duration.microseconds(Int64(random.next() % 200) + 1)
      let handle = RepeatingTimer(owner: nil, start: instant(deadline), interval: interval, body)
      payload = .timer(handle)
      timers[id] = TimerRecord(id: id, deadline: deadline, latest: latest, handle: handle, repeating: interval)
    }
    let result = machine.addTimer(
      payload, at: instant(deadline), leeway: .microseconds(leeway), now: instant(now), punctuality: punctuality,
      maySpin: maySpin)
    perform(result.worker)
  }

  mutating func disposeTimer() {
    let candidates = timers.values.filter { $0.handle != nil && !$0.disposed }.map(\.id).sorted()
    guard !candidates.isEmpty else { return }
    let id = candidates[Int(random.next() % UInt64(candidates.count))]
    trace.append("dispose \(id)")
    dispose(id)
  }

  mutating func dispose(_ id: Int) {
    timers[id]!.disposed = true
    timers[id]!.runsAtDispose = (runs[id] ?? 0) + ran.values[counted...].filter { $0.id == id }.count
    timers[id]!.handle!.dispose()
    machine.removeTimer(timers[id]!.handle!)
  }

  mutating func advanceTime(by microseconds: Int64) {
    now += microseconds
    clock.now = now
  }

  mutating func fireAlarmIfDue() {
    guard let armed = machine.armed, armed <= instant(now) else { return }
    trace.append("alarm at \(now)")
    perform(machine.alarmFired(now: instant(now), punctuality: punctuality, maySpin: chance(70)).worker)
  }

  mutating func inlineRun() {
    if inline {
      trace.append("inline finish")
      inline = false
      let action = machine.finishInlineRun(now: instant(now), punctuality: punctuality)
      if action.worker.start > 0 { workers.append(SimulatedWorker(phase: .starting)) }
    } else if machine.isIdle && machine.claimWorker() {
      trace.append("inline claim")
      inline = true
    }
  }

  /// One simulated worker takes its next step: a starting worker asks for work, a running one runs what
  /// it took and asks again, a waiting one comes back (signalled, timed out, or spuriously).
  mutating func advanceWorker() {
    guard !workers.isEmpty else { return }
    let index = Int(random.next() % UInt64(workers.count))
    switch workers[index].phase {
    case .starting:
      trace.append("worker \(index) starts at \(now)")
    case .running(let work):
      for item in work { runWork(item) }
      trace.append("worker \(index) ran at \(now)")
    case .waiting(let until, let signalled):
      // A wait ends when signalled or at its deadline; simulate the latter by moving time.
      if !signalled && until > now { advanceTime(by: until - now) }
      trace.append("worker \(index) waited until \(now)")
    }
    let maySpin = chance(70)
    var state = workers[index].state
    if width == 1 {
      var batch = WorkFIFO()
      let step = machine.takeBatch(
        into: &batch, worker: &state, now: instant(now), punctuality: punctuality, maySpin: maySpin)
      workers[index].state = state
      if let broken = apply(step, index: index, work: Array(batch.pending), maySpin: maySpin) {
        failures.append(broken)
      }
    } else {
      var work: Work? = nil
      let step = machine.takeOne(
        into: &work, worker: &state, now: instant(now), punctuality: punctuality, maySpin: maySpin)
      self.workers[index].state = state
      if let broken = apply(step, index: index, work: work.map { [$0] } ?? [], maySpin: maySpin) {
        failures.append(broken)
      }
      if case .run(let action) = step { perform(action.worker) }
    }
  }

  mutating func apply(_ step: WorkQueueStateMachine.WorkerStep, index: Int, work: [Work], maySpin: Bool) -> String? {
    switch step {
    case .run:
      workers[index].phase = .running(work)
    case .wait(let until):
      workers[index].phase = .waiting(until: until.offset.saturatingMicroseconds, signalled: false)
      if !maySpin { return "a worker without a spin slot was told to wait" }
      if punctuality == .efficient { return "a worker was told to wait in the efficient mode" }
    case .stop:
      workers.remove(at: index)
    }
    return nil
  }

  func runWork(_ work: Work) {
    switch work {
    case .action(let action): action.run()
    case .closure(let body): body()
    default: Issue.record("unexpected work")
    }
  }

  // MARK: Invariants

  mutating func checkInvariants() -> String? {
    if let failure = failures.first { return failure }
    let starting = workers.filter { if case .starting = $0.phase { true } else { false } }.count
    let waiting = workers.filter { if case .waiting = $0.phase { true } else { false } }.count
    let active = workers.count + (inline ? 1 : 0)
    if Int(machine.activeWorkers) != active { return "active workers \(machine.activeWorkers), model \(active)" }
    if active > width { return "width \(width) exceeded: \(active) workers" }
    if Int(machine.waitingWorkers) != waiting { return "waiting workers \(machine.waitingWorkers), model \(waiting)" }
    if Int(machine.startingWorkers) != starting {
      return "starting workers \(machine.startingWorkers), model \(starting)"
    }
    let ready = machine.readyCount
    if ready > 0 && active < width && starting + waiting < (width == 1 ? 1 : ready) {
      return "\(ready) ready item(s) and a free slot, with \(starting + waiting) worker(s) on the way"
    }
    if let first = machine.firstTimerDeadline, waiting == 0, starting == 0, !(width == 1 && active == 1), active < width
    {
      guard let armed = machine.armed else { return "timers pending (first \(first)) and nobody watches them" }
      // The alarm goes off by the end of every pending one-shot timer's window (repeating timers move).
      let pending = timers.values.filter { !$0.disposed && $0.repeating == nil && (runs[$0.id] ?? 0) == 0 }
      let windowEnd = pending.filter { $0.deadline > now }.map(\.latest).min()
      if punctuality == .efficient, let windowEnd, armed > instant(windowEnd) {
        return "alarm armed at \(armed), after a pending timer's window ends at \(windowEnd)"
      }
      if punctuality != .efficient && armed > first {
        return "alarm armed at \(armed), after the first deadline \(first)"
      }
    }
    // Nothing ran twice, and nothing ran early.
    let new = ran.values[counted...]
    counted = ran.values.count
    for (id, at) in new {
      runs[id, default: 0] += 1
      if let timer = timers[id] {
        if at < timer.deadline { return "timer \(id) due at \(timer.deadline) ran early, at \(at)" }
        if timer.repeating == nil && runs[id]! > 1 { return "timer \(id) ran twice" }
      } else if runs[id]! > 1 {
        return "job \(id) ran twice"
      }
    }
    for timer in timers.values where timer.disposed && (runs[timer.id] ?? 0) > timer.runsAtDispose {
      return "timer \(timer.id) ran after it was disposed"
    }
    return nil
  }

  /// Stops the repeating timers, then lets time pass and workers run until nothing is left; checks
  /// that every job ran once and every one-shot timer not disposed fired once.
  mutating func settle() -> String? {
    for id in timers.keys.sorted() where timers[id]!.repeating != nil && !timers[id]!.disposed { dispose(id) }
    if inline { inlineRun() }
    var steps = 0
    while !workers.isEmpty || machine.armed != nil || machine.readyCount > 0 {
      steps += 1
      if steps > 100_000 {
        return "did not settle: \(workers.count) worker(s), armed \(String(describing: machine.armed))"
      }
      if !workers.isEmpty {
        advanceWorker()
      } else if let armed = machine.armed {
        if armed > instant(now) { advanceTime(by: armed.offset.saturatingMicroseconds - now) }
        fireAlarmIfDue()
      } else {
        return "\(machine.readyCount) ready item(s) with no worker and no alarm"
      }
      if let broken = checkInvariants() { return "while settling: " + broken }
    }
    if machine.timerCount > 0 { return "\(machine.timerCount) timer(s) left with nobody watching them" }
    for id in jobs where runs[id] != 1 {
      return "job \(id) ran \(runs[id] ?? 0) times"
    }
    for timer in timers.values where timer.repeating == nil && !timer.disposed {
      let count = runs[timer.id] ?? 0
      if count != 1 { return "timer \(timer.id) due at \(timer.deadline) fired \(count) times" }
    }
    return nil
  }
}

extension Duration {
  fileprivate var saturatingMicroseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds.multipliedReportingOverflow(by: 1_000_000).overflow
      ? (seconds > 0 ? .max : .min) : seconds * 1_000_000 + attoseconds / 1_000_000_000_000
  }
}
