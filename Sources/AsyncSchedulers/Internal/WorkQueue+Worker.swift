import Dispatch

extension WorkQueue {
  /// Submits a worker to the target queue; the block holds the host (and this engine) until it returns.
  func startWorker(_ context: WorkerContext) {
    guard lowLatency else {
      PackageDispatch.submit { queue.async { self.runWorker(context) } }
      return
    }
    // Only low-latency engines hand timers over, so only they measure how long a worker takes to start.
    let requested = HandOffLatency.now
    PackageDispatch.submit {
      queue.async {
        HandOffLatency.recordWorkerStart(HandOffLatency.now - requested)
        self.runWorker(context)
      }
    }
  }

  /// Runs ready work until there is none, or until the budget is spent (then re-submits itself,
  /// keeping its slot, so other work on the target queue gets a turn). In low-latency mode, a worker
  /// that holds a spin slot may wait for an imminent timer or linger before giving its slot back.
  func runWorker(_ context: WorkerContext) {
    let previous = context.host.map { CurrentSchedulerSlot.enter($0) } ?? CurrentSchedulerSlot.enter(self)
    defer { CurrentSchedulerSlot.restore(previous) }
    // Jobs of tasks preferring a serial scheduler run nonisolated on its task executor, so the
    // nonisolated async calls they make (every `next()` of a `for await`) stay on this worker instead of
    // hopping through the queue; on the main-actor scheduler they keep the main actor's isolation.
    let runner = WorkRunner(
      serial: context.serial, taskExecutor: context.host?.asUnownedTaskExecutor(),
      isolatesTaskJobs: isolation == .mainActor)
    var worker = WorkQueueStateMachine.Worker()
    var processed = 0
    var batch = WorkFIFO()
    while true {
      let now = SchedulerInstant.uptimeNow
      let punctuality = self.punctuality
      // A spin slot is taken before asking, so that the machine answers `.wait` only to a worker
      // that may spin; it is given back at once when the answer is not `.wait`.
      let maySpin = lowLatency && SpinBudget.tryAcquire()
      var work: Work? = nil
      let (step, signal, released, arming) = state.withCriticalRegion { state in
        let step =
          takesBatches
          ? state.machine.takeBatch(into: &batch, worker: &worker, now: now, punctuality: punctuality, maySpin: maySpin)
          : state.machine.takeOne(into: &work, worker: &worker, now: now, punctuality: punctuality, maySpin: maySpin)
        let timer: WorkQueueStateMachine.TimerAction
        switch step {
        case .run(let action): timer = action.timer
        case .stop(let stopping): timer = stopping
        case .wait: timer = .none
        }
        return (
          step, waitSignal.load(ordering: .relaxed), state.retainWhileTimersPending(),
          alarmArming(for: timer, in: &state)
        )
      }
      if let arming { AlarmClock.shared.arm(arming) }
      // This worker's own reference keeps the host alive past this release.
      withExtendedLifetime(released) {}
      if case .run(let action) = step { perform(action.worker, action.worker.start > 0 ? context : nil) }
      if case .wait(let until) = step {
        wait(until: until, seen: signal)
        SpinBudget.release()
        continue
      }
      if maySpin { SpinBudget.release() }
      guard case .run = step else { return }
      if let work {
        runner.run(work)
        processed += 1
      } else {
        for work in batch.pending { runner.run(work) }
        processed += batch.count
        batch.removeAll(keepingCapacity: true)
      }
      if processed >= Self.budget {
        state.withCriticalRegion { $0.machine.resubmit(worker) }
        startWorker(context)
        return
      }
    }
  }

  /// Spins until the wait signal moves past `seen` or `deadline` has come (low-latency mode only,
  /// bounded by the timer window or the linger time). Holds no lock.
  private func wait(until deadline: SchedulerInstant, seen: UInt32) {
    let end = deadline.offset.saturatingNanoseconds
    var iterations: UInt32 = 0
    while waitSignal.load(ordering: .relaxed) == seen {
      iterations &+= 1
      if iterations & 15 == 0 && DispatchTime.now().uptimeNanoseconds >= end { return }
    }
  }
}
