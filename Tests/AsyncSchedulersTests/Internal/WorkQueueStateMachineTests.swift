import AsyncSchedulersTestSupport
import Testing

@testable import AsyncSchedulers

@Suite("WorkQueueStateMachine")
struct WorkQueueStateMachineTests {
  private func at(_ microseconds: Int64) -> SchedulerInstant { SchedulerInstant(offset: .microseconds(microseconds)) }
  private func timer() -> ScheduledTimer { ScheduledTimer(owner: nil) {} }
  private typealias Machine = WorkQueueStateMachine

  /// The low-latency mode with a 100 µs timer window and 20 µs of lingering.
  private let low = Machine.Punctuality.lowLatency(timerWindow: .microseconds(100), linger: .microseconds(20))
  private let efficient = Machine.Punctuality.efficient

  @Test("the efficient policy never waits, never sees a timer as imminent, and alarms at the firing window")
  func efficientPolicy() {
    let window = (start: at(90), end: at(120))
    #expect(efficient.waitInsteadOfStopping(firstTimer: at(1), now: at(0), mayLinger: true) == nil)
    #expect(!efficient.isImminent(at(0), now: at(0)))
    let alarm = efficient.alarm(first: at(50), imminent: false, firingWindow: window)
    #expect(alarm.earliest == at(90) && alarm.latest == at(120))
  }

  @Test("the low-latency policy waits for a timer within its window, else lingers once, and alarms a window early")
  func lowLatencyPolicy() {
    #expect(low.waitInsteadOfStopping(firstTimer: at(80), now: at(0), mayLinger: false) == at(80))
    #expect(low.waitInsteadOfStopping(firstTimer: at(500), now: at(0), mayLinger: true) == at(20))
    #expect(low.waitInsteadOfStopping(firstTimer: at(500), now: at(0), mayLinger: false) == nil)
    #expect(low.isImminent(at(100), now: at(0)) && !low.isImminent(at(101), now: at(0)))
    let early = low.alarm(first: at(500), imminent: false, firingWindow: nil)
    #expect(early.earliest == at(400) && early.latest == at(400))
    let exact = low.alarm(first: at(50), imminent: true, firingWindow: nil)
    #expect(exact.earliest == at(50) && exact.latest == at(50))
  }

  // MARK: Efficient (the default)

  @Test(
    "a serial worker that stops leaves its emptied batch buffer to the ready queue, so the next tick allocates none")
  func stoppingWorkerKeepsTheBatchBuffer() {
    var machine = Machine(width: 1)
    _ = machine.enqueue(.closure {})
    var worker = Machine.Worker()
    var batch = WorkFIFO()
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(0), punctuality: efficient, maySpin: false)
        == .run(.none))
    batch.removeAll(keepingCapacity: true)
    let capacity = batch.capacity
    #expect(capacity > 0 && machine.ready.capacity == 0)
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(0), punctuality: efficient, maySpin: false)
        == .stop(.none))
    #expect(machine.ready.capacity == capacity && batch.capacity == 0)
  }

  @Test("the first job starts a worker; later jobs ride on it")
  func firstJobStartsAWorker() {
    var machine = Machine(width: 1)
    var worker = Machine.Worker()
    #expect(machine.enqueue(.closure {}) == .startWorker)
    #expect(machine.enqueue(.closure {}) == .none)
    var batch = WorkFIFO()
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(0), punctuality: efficient, maySpin: true) == .run(.none)
    )
    #expect(batch.count == 2)
  }

  @Test("in the efficient mode a drained worker stops at once, even holding a spin slot")
  func efficientWorkerNeverWaits() {
    var machine = Machine(width: 1)
    var worker = Machine.Worker()
    _ = machine.enqueue(.closure {})
    _ = machine.addTimer(.timer(timer()), at: at(30), leeway: .zero, now: at(0), punctuality: efficient, maySpin: true)
    var batch = WorkFIFO()
    _ = machine.takeBatch(into: &batch, worker: &worker, now: at(1), punctuality: efficient, maySpin: true)
    batch.removeAll()
    // A timer 29 µs away: no waiting for it; the alarm is armed at its deadline.
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(1), punctuality: efficient, maySpin: true)
        == .stop(.arm(earliest: at(30), latest: at(30))))
    #expect(machine.isIdle)
  }

  @Test("the alarm is armed for the window in which one wake-up fires every timer due by its end, within its leeway")
  func alarmCoversTheCommonWindow() {
    var machine = Machine(width: 1)
    #expect(
      machine.addTimer(
        .timer(timer()), at: at(1_000), leeway: .microseconds(500), now: at(0), punctuality: efficient, maySpin: false)
        == .init(worker: .none, timer: .arm(earliest: at(1_000), latest: at(1_500))))
    // A later timer whose window closes after the alarm's changes nothing.
    #expect(
      machine.addTimer(
        .timer(timer()), at: at(1_200), leeway: .microseconds(400), now: at(1), punctuality: efficient, maySpin: false)
        == .none)
    // A later timer whose window closes earlier pulls the alarm in, and the window starts once all three
    // are due: one wake-up fires them together.
    #expect(
      machine.addTimer(
        .timer(timer()), at: at(1_300), leeway: .microseconds(50), now: at(2), punctuality: efficient, maySpin: false)
        == .init(worker: .none, timer: .arm(earliest: at(1_300), latest: at(1_350))))
    #expect(machine.armed == at(1_350))
  }

  @Test("when the alarm goes off, every timer whose deadline has come fires in the same wake-up, and none early")
  func coalescedTimersFireTogetherNeverEarly() {
    var machine = Machine(width: 1)
    let log = Log<String>()
    for (name, deadline, leeway) in [("a", 1_000, 500), ("b", 1_200, 300), ("c", 1_400, 10), ("d", 2_000, 0)] {
      _ = machine.addTimer(
        .closure { log.append(name) }, at: at(Int64(deadline)), leeway: .microseconds(leeway), now: at(0),
        punctuality: efficient, maySpin: false)
    }
    #expect(machine.armed == at(1_410))
    // The alarm thread re-arms for the next timer while it is awake, though a worker is now active.
    #expect(
      machine.alarmFired(now: at(1_410), punctuality: efficient, maySpin: false)
        == .init(worker: .startWorker, timer: .arm(earliest: at(2_000), latest: at(2_000))))
    var worker = Machine.Worker()
    var batch = WorkFIFO()
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(1_410), punctuality: efficient, maySpin: false)
        == .run(.none))
    for work in batch.pending { if case .closure(let body) = work { body() } }
    #expect(log.values == ["a", "b", "c"])
    batch.removeAll()
    // So the worker stopping arms nothing (which would wake the alarm thread once more per timer).
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(1_411), punctuality: efficient, maySpin: false)
        == .stop(.none))
  }

  @Test("a negative leeway counts as zero")
  func negativeLeewayIsZero() {
    var machine = Machine(width: 1)
    #expect(
      machine.addTimer(
        .timer(timer()), at: at(100), leeway: .microseconds(-50), now: at(0), punctuality: efficient, maySpin: false)
        == .init(worker: .none, timer: .arm(earliest: at(100), latest: at(100))))
  }

  @Test("a repeating timer keeps its leeway on every tick")
  func repeatingTimerKeepsLeeway() {
    var machine = Machine(width: 1)
    let repeating = RepeatingTimer(owner: nil, start: at(100), interval: .microseconds(100)) {}
    _ = machine.addTimer(
      .timer(repeating), at: at(100), leeway: .microseconds(30), now: at(0), punctuality: efficient, maySpin: false)
    #expect(machine.armed == at(130))
    #expect(
      machine.alarmFired(now: at(130), punctuality: efficient, maySpin: false)
        == .init(worker: .startWorker, timer: .arm(earliest: at(200), latest: at(230))))
  }

  @Test("a disposed timer leaves the heap at once and a stale alarm then finds nothing to do")
  func removedTimerLeavesStaleAlarmHarmless() {
    var machine = Machine(width: 1)
    let first = timer()
    _ = machine.addTimer(
      .timer(first), at: at(10_000), leeway: .zero, now: at(0), punctuality: efficient, maySpin: false)
    machine.removeTimer(first)
    #expect(machine.timerCount == 0)
    #expect(machine.alarmFired(now: at(10_000), punctuality: efficient, maySpin: false) == .none)
    #expect(machine.isIdle)
  }

  @Test("a timer already due when added starts a worker at once")
  func overdueTimerStartsWorker() {
    var machine = Machine(width: 1)
    #expect(
      machine.addTimer(.timer(timer()), at: at(-5), leeway: .zero, now: at(0), punctuality: efficient, maySpin: false)
        == .init(worker: .startWorker, timer: .none))
    #expect(machine.armed == nil)
    var worker = Machine.Worker()
    var batch = WorkFIFO()
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(0), punctuality: efficient, maySpin: false)
        == .run(.none))
  }

  @Test("an active serial worker watches the timers itself, and re-arms the alarm when it stops")
  func activeWorkerWatchesTimers() {
    var machine = Machine(width: 1)
    var worker = Machine.Worker()
    #expect(machine.enqueue(.closure {}) == .startWorker)
    #expect(
      machine.addTimer(
        .timer(timer()), at: at(10_000), leeway: .zero, now: at(0), punctuality: efficient, maySpin: false)
        == .none)
    var batch = WorkFIFO()
    _ = machine.takeBatch(into: &batch, worker: &worker, now: at(1), punctuality: efficient, maySpin: false)
    batch.removeAll()
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(2), punctuality: efficient, maySpin: false)
        == .stop(.arm(earliest: at(10_000), latest: at(10_000))))
  }

  @Test("fire-and-forget timers and handle timers fire in one (deadline, scheduling order) sequence")
  func closureTimersMergeWithHandleTimers() {
    var machine = Machine(width: 1)
    let log = Log<String>()
    let handle = ScheduledTimer(owner: nil) { log.append("handle 20") }
    func add(_ payload: TimerHeap.Payload, _ deadline: Int64) {
      _ = machine.addTimer(payload, at: at(deadline), leeway: .zero, now: at(0), punctuality: efficient, maySpin: false)
    }
    add(.closure { log.append("closure 20 first") }, 20)
    add(.timer(handle), 20)
    add(.closure { log.append("closure 10") }, 10)
    add(.closure { log.append("closure 30") }, 30)
    #expect(machine.timerCount == 4)
    #expect(machine.alarmFired(now: at(25), punctuality: efficient, maySpin: false).worker == .startWorker)
    var worker = Machine.Worker()
    var batch = WorkFIFO()
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(25), punctuality: efficient, maySpin: false)
        == .run(.none))
    for work in batch.pending {
      switch work {
      case .action(let action): action.run()
      case .closure(let body): body()
      default: Issue.record("unexpected work")
      }
    }
    #expect(log.values == ["closure 10", "closure 20 first", "handle 20"])
    #expect(machine.timerCount == 1)
  }

  @Test("a concurrent machine with free slots keeps the alarm while a worker runs a long job")
  func concurrentKeepsAlarm() {
    var machine = Machine(width: 2)
    var worker = Machine.Worker()
    #expect(machine.enqueue(.closure {}) == .startWorker)
    var work: Work? = nil
    _ = machine.takeOne(into: &work, worker: &worker, now: at(0), punctuality: efficient, maySpin: false)
    #expect(work != nil)
    #expect(
      machine.addTimer(
        .timer(timer()), at: at(10_000), leeway: .zero, now: at(1), punctuality: efficient, maySpin: false)
        == .init(worker: .none, timer: .arm(earliest: at(10_000), latest: at(10_000))))
    #expect(
      machine.alarmFired(now: at(10_000), punctuality: efficient, maySpin: false)
        == .init(worker: .startWorker, timer: .none))
    #expect(machine.activeWorkers == 2)
  }

  // MARK: Low latency (opt-in)

  @Test("in the low-latency mode a drained worker lingers, is signalled by new work, and stops after an idle linger")
  func drainedWorkerLingers() {
    var machine = Machine(width: 1)
    var worker = Machine.Worker()
    _ = machine.enqueue(.closure {})
    var batch = WorkFIFO()
    _ = machine.takeBatch(into: &batch, worker: &worker, now: at(0), punctuality: low, maySpin: true)
    batch.removeAll()
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(5), punctuality: low, maySpin: true)
        == .wait(until: at(25)))
    #expect(machine.enqueue(.closure {}) == .wakeWaiting)
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(6), punctuality: low, maySpin: true) == .run(.none))
    batch.removeAll()
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(7), punctuality: low, maySpin: true)
        == .wait(until: at(27)))
    // The linger ran out with nothing to do: the worker lingers once per drain, so it stops.
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(27), punctuality: low, maySpin: true) == .stop(.none))
    #expect(machine.isIdle)
    #expect(machine.enqueue(.closure {}) == .startWorker)
  }

  @Test("in the low-latency mode the alarm is armed one window before the earliest deadline")
  func alarmArmedOneWindowEarly() {
    var machine = Machine(width: 1)
    #expect(
      machine.addTimer(.timer(timer()), at: at(10_000), leeway: .zero, now: at(0), punctuality: low, maySpin: true)
        == .init(worker: .none, timer: .arm(earliest: at(9_900), latest: at(9_900))))
    #expect(
      machine.addTimer(.timer(timer()), at: at(20_000), leeway: .zero, now: at(1), punctuality: low, maySpin: true)
        == .none)
    #expect(
      machine.addTimer(.timer(timer()), at: at(5_000), leeway: .zero, now: at(2), punctuality: low, maySpin: true)
        == .init(worker: .none, timer: .arm(earliest: at(4_900), latest: at(4_900))))
  }

  @Test("when the alarm goes off early it hands the timer to a worker, which waits for the deadline and fires it")
  func alarmHandsTimerToWorker() {
    var machine = Machine(width: 1)
    var worker = Machine.Worker()
    _ = machine.addTimer(.timer(timer()), at: at(10_000), leeway: .zero, now: at(0), punctuality: low, maySpin: true)
    #expect(
      machine.alarmFired(now: at(9_930), punctuality: low, maySpin: true) == .init(worker: .startWorker, timer: .none))
    var batch = WorkFIFO()
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(9_960), punctuality: low, maySpin: true)
        == .wait(until: at(10_000)))
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(10_001), punctuality: low, maySpin: true) == .run(.none))
    #expect(batch.count == 1)
    #expect(machine.timerCount == 0)
  }

  @Test("an earlier timer added while a worker waits for a later one signals it")
  func earlierTimerSignalsWaitingWorker() {
    var machine = Machine(width: 1)
    var worker = Machine.Worker()
    _ = machine.addTimer(.timer(timer()), at: at(80), leeway: .zero, now: at(0), punctuality: low, maySpin: true)
    #expect(machine.activeWorkers == 1)
    var batch = WorkFIFO()
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(1), punctuality: low, maySpin: true)
        == .wait(until: at(80)))
    #expect(
      machine.addTimer(.timer(timer()), at: at(40), leeway: .zero, now: at(2), punctuality: low, maySpin: true)
        == .init(worker: .wakeWaiting, timer: .none))
    #expect(
      machine.addTimer(.timer(timer()), at: at(90), leeway: .zero, now: at(3), punctuality: low, maySpin: true)
        == .none)
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(4), punctuality: low, maySpin: true)
        == .wait(until: at(40)))
  }

  @Test("a worker without a spin slot stops, and a timer inside the window gets an alarm at its exact deadline")
  func noSpinSlotArmsExactDeadline() {
    var machine = Machine(width: 1)
    var worker = Machine.Worker()
    _ = machine.addTimer(.timer(timer()), at: at(80), leeway: .zero, now: at(0), punctuality: low, maySpin: true)
    var batch = WorkFIFO()
    #expect(
      machine.takeBatch(into: &batch, worker: &worker, now: at(2), punctuality: low, maySpin: false)
        == .stop(.arm(earliest: at(80), latest: at(80))))
    #expect(machine.waitingWorkers == 0 && machine.activeWorkers == 0)
    // With no spin available, adding an imminent timer arms rather than starting a worker.
    #expect(
      machine.addTimer(.timer(timer()), at: at(60), leeway: .zero, now: at(3), punctuality: low, maySpin: false)
        == .init(worker: .none, timer: .arm(earliest: at(60), latest: at(60))))
  }
}
