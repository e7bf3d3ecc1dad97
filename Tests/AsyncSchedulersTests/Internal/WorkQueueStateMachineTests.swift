import AsyncSchedulers
import AsyncSchedulersTestSupport
import Testing

@Suite("WorkQueueStateMachine")
struct WorkQueueStateMachineTests {
  private func at(_ microseconds: Int64) -> SchedulerInstant { SchedulerInstant(offset: .microseconds(microseconds)) }
  private func timer() -> ScheduledTimer { ScheduledTimer(owner: nil) {} }

  /// A serial machine with a 100 µs timer window and 20 µs of lingering.
  private func machine() -> WorkQueueStateMachine {
    WorkQueueStateMachine(width: 1, timerWindow: .microseconds(100), lingerTime: .microseconds(20))
  }

  @Test("the first job starts a worker; later jobs ride on it")
  func firstJobStartsAWorker() {
    var machine = machine()
    #expect(machine.enqueue(.closure {}) == .startWorker)
    #expect(machine.enqueue(.closure {}) == .none)
    var batch = WorkFIFO()
    #expect(machine.takeBatch(into: &batch, now: at(0), mayLinger: true, maySpin: true, from: .started) == .run)
    #expect(batch.count == 2)
  }

  @Test("a drained worker lingers, is signalled by new work instead of a new worker, and stops after an idle linger")
  func drainedWorkerLingers() {
    var machine = machine()
    _ = machine.enqueue(.closure {})
    var batch = WorkFIFO()
    _ = machine.takeBatch(into: &batch, now: at(0), mayLinger: true, maySpin: true, from: .started)
    batch.removeAll()
    #expect(machine.takeBatch(into: &batch, now: at(5), mayLinger: true, maySpin: true, from: .ran) == .wait(until: at(25)))
    #expect(machine.enqueue(.closure {}) == .wakeWaiting)
    #expect(machine.takeBatch(into: &batch, now: at(6), mayLinger: true, maySpin: true, from: .waited) == .run)
    batch.removeAll()
    #expect(machine.takeBatch(into: &batch, now: at(7), mayLinger: true, maySpin: true, from: .ran) == .wait(until: at(27)))
    // The linger ran out with nothing to do: the worker is not allowed to linger again, so it stops.
    #expect(machine.takeBatch(into: &batch, now: at(27), mayLinger: false, maySpin: true, from: .waited) == .stop(.none))
    #expect(machine.isIdle)
    #expect(machine.enqueue(.closure {}) == .startWorker)
  }

  @Test("with no active worker the alarm is armed one window before the earliest deadline")
  func alarmArmedOneWindowEarly() {
    var machine = machine()
    let (worker, alarm) = machine.addTimer(timer(), at: at(10_000), now: at(0), maySpin: true)
    #expect(worker == .none)
    #expect(alarm == .arm(at(9_900)))
    // A later timer changes nothing; an earlier one moves the alarm.
    #expect(machine.addTimer(timer(), at: at(20_000), now: at(1), maySpin: true) == (.none, .none))
    #expect(machine.addTimer(timer(), at: at(5_000), now: at(2), maySpin: true) == (.none, .arm(at(4_900))))
  }

  @Test("when the alarm goes off early it hands the timer to a worker, which waits for the deadline and fires it")
  func alarmHandsTimerToWorker() {
    var machine = machine()
    _ = machine.addTimer(timer(), at: at(10_000), now: at(0), maySpin: true)
    #expect(machine.alarmFired(now: at(9_930), maySpin: true) == (.startWorker, .none))
    var batch = WorkFIFO()
    #expect(machine.takeBatch(into: &batch, now: at(9_960), mayLinger: true, maySpin: true, from: .started) == .wait(until: at(10_000)))
    #expect(machine.takeBatch(into: &batch, now: at(10_001), mayLinger: false, maySpin: true, from: .waited) == .run)
    #expect(batch.count == 1)
    #expect(machine.timerCount == 0)
  }

  @Test("an active serial worker watches the timers itself, and re-arms the alarm when it stops")
  func activeWorkerWatchesTimers() {
    var machine = machine()
    #expect(machine.enqueue(.closure {}) == .startWorker)
    #expect(machine.addTimer(timer(), at: at(10_000), now: at(0), maySpin: true) == (.none, .none))
    var batch = WorkFIFO()
    _ = machine.takeBatch(into: &batch, now: at(1), mayLinger: true, maySpin: true, from: .started)
    batch.removeAll()
    #expect(machine.takeBatch(into: &batch, now: at(2), mayLinger: false, maySpin: true, from: .ran) == .stop(.arm(at(9_900))))
    #expect(machine.armed == at(9_900))
  }

  @Test("an earlier timer added while a worker waits for a later one signals it")
  func earlierTimerSignalsWaitingWorker() {
    var machine = machine()
    _ = machine.addTimer(timer(), at: at(80), now: at(0), maySpin: true)
    #expect(machine.activeWorkers == 1)
    var batch = WorkFIFO()
    #expect(machine.takeBatch(into: &batch, now: at(1), mayLinger: true, maySpin: true, from: .started) == .wait(until: at(80)))
    #expect(machine.addTimer(timer(), at: at(40), now: at(2), maySpin: true) == (.wakeWaiting, .none))
    #expect(machine.addTimer(timer(), at: at(90), now: at(3), maySpin: true) == (.none, .none))
    #expect(machine.takeBatch(into: &batch, now: at(4), mayLinger: true, maySpin: true, from: .waited) == .wait(until: at(40)))
  }

  @Test("a worker refused a spin stops, and a timer inside the window gets an alarm at its exact deadline")
  func refusedSpinArmsExactDeadline() {
    var machine = machine()
    _ = machine.addTimer(timer(), at: at(80), now: at(0), maySpin: true)
    var batch = WorkFIFO()
    #expect(machine.takeBatch(into: &batch, now: at(1), mayLinger: true, maySpin: true, from: .started) == .wait(until: at(80)))
    #expect(machine.takeBatch(into: &batch, now: at(2), mayLinger: false, maySpin: false, from: .waited) == .stop(.arm(at(80))))
    #expect(machine.waitingWorkers == 0 && machine.activeWorkers == 0)
    // With no spin available, adding an imminent timer arms rather than starting a worker.
    #expect(machine.addTimer(timer(), at: at(60), now: at(3), maySpin: false) == (.none, .arm(at(60))))
  }

  @Test("fire-and-forget timers and handle timers fire in one (deadline, scheduling order) sequence")
  func closureTimersMergeWithHandleTimers() {
    var machine = machine()
    let log = Log<String>()
    let handle = ScheduledTimer(owner: nil) { log.append("handle 20") }
    _ = machine.addTimer(at: at(20), now: at(0), maySpin: false) { log.append("closure 20 first") }
    _ = machine.addTimer(handle, at: at(20), now: at(0), maySpin: false)
    _ = machine.addTimer(at: at(10), now: at(0), maySpin: false) { log.append("closure 10") }
    _ = machine.addTimer(at: at(30), now: at(0), maySpin: false) { log.append("closure 30") }
    #expect(machine.timerCount == 4)
    #expect(machine.alarmFired(now: at(25), maySpin: false).worker == .startWorker)
    var batch = WorkFIFO()
    #expect(machine.takeBatch(into: &batch, now: at(25), mayLinger: false, maySpin: false, from: .started) == .run)
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

  @Test("an earlier fire-and-forget timer moves the alarm like a handle timer does")
  func closureTimerMovesAlarm() {
    var machine = machine()
    #expect(machine.addTimer(timer(), at: at(10_000), now: at(0), maySpin: true) == (.none, .arm(at(9_900))))
    #expect(machine.addTimer(at: at(5_000), now: at(1), maySpin: true) {} == (.none, .arm(at(4_900))))
    #expect(machine.addTimer(at: at(7_000), now: at(2), maySpin: true) {} == (.none, .none))
  }

  @Test("a timer already due when added starts a worker even when no worker may spin")
  func overdueTimerStartsWorkerWithoutSpin() {
    var machine = machine()
    #expect(machine.addTimer(timer(), at: at(-5), now: at(0), maySpin: false) == (.startWorker, .none))
    #expect(machine.armed == nil)
  }

  @Test("a timer already due when added starts a worker at once")
  func overdueTimerStartsWorker() {
    var machine = machine()
    #expect(machine.addTimer(timer(), at: at(-5), now: at(0), maySpin: true) == (.startWorker, .none))
    var batch = WorkFIFO()
    #expect(machine.takeBatch(into: &batch, now: at(0), mayLinger: true, maySpin: true, from: .started) == .run)
  }

  @Test("with no window and no lingering (the main queue) a drained worker stops and the alarm is the deadline")
  func mainQueueNeverSpins() {
    var machine = WorkQueueStateMachine(width: 1)
    #expect(machine.addTimer(timer(), at: at(50), now: at(0), maySpin: true) == (.none, .arm(at(50))))
    #expect(machine.enqueue(.closure {}) == .startWorker)
    var batch = WorkFIFO()
    #expect(machine.takeBatch(into: &batch, now: at(1), mayLinger: true, maySpin: true, from: .started) == .run)
    batch.removeAll()
    // The alarm is still armed for 50 µs, so stopping arms nothing new.
    #expect(machine.takeBatch(into: &batch, now: at(2), mayLinger: true, maySpin: true, from: .ran) == .stop(.none))
  }

  @Test("a disposed timer leaves the heap at once and a stale alarm then finds nothing to do")
  func removedTimerLeavesStaleAlarmHarmless() {
    var machine = machine()
    let first = timer()
    _ = machine.addTimer(first, at: at(10_000), now: at(0), maySpin: true)
    machine.removeTimer(first)
    #expect(machine.timerCount == 0)
    #expect(machine.alarmFired(now: at(9_900), maySpin: true) == (.none, .none))
    #expect(machine.isIdle)
  }

  @Test("a concurrent machine with free slots keeps the alarm while a worker runs a long job")
  func concurrentKeepsAlarm() {
    var machine = WorkQueueStateMachine(width: 2, timerWindow: .microseconds(100), lingerTime: .microseconds(20))
    #expect(machine.enqueue(.closure {}) == .startWorker)
    let (_, work, _, _) = machine.takeOne(now: at(0), mayLinger: true, maySpin: true, from: .started)
    #expect(work != nil)
    #expect(machine.addTimer(timer(), at: at(10_000), now: at(1), maySpin: true) == (.none, .arm(at(9_900))))
    #expect(machine.alarmFired(now: at(9_900), maySpin: true) == (.startWorker, .none))
    #expect(machine.activeWorkers == 2)
  }
}
