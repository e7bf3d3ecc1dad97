import AsyncSchedulers

/// The executor faces of a ``TestScheduler``: jobs of tasks preferring it, of actors bound to it and of a
/// capturing scope's main actor join its FIFO; work from outside is checked for escapes as it is handed over.
extension TestScheduler {

  /// Queues a job of a task that prefers this scheduler; it runs on the next driving call.
  public func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    if let scope = capturingScope, scope.ownsJob(job) {
      let work = Work.taskJob(job)
      let lane = explorationLane(of: work)
      let wake = state.withCriticalRegion { $0.enqueue(work, lane: lane, .captured).wake }
      if wake { wakeup.signal() }
      return
    }
    enqueue(work: .taskJob(job), escaping: "a task or actor job", isJob: true)
  }

  /// Queues a job of an actor bound to this scheduler; it runs, isolated, on the next driving call.
  func enqueueIsolated(_ job: UnownedJob) {
    enqueue(work: .job(job), escaping: "a task or actor job", isJob: true)
  }

  /// Queues a main-actor job of a capturing scope's code; returns `false` (queuing nothing) once the
  /// scope has ended: the caller hands the job to the real main actor instead.
  ///
  /// A job of a task of the scope is never an escape, whoever enqueues it (a continuation resumed by a
  /// Dispatch callback): it is outside work arriving, and runs at the current virtual instant. A task
  /// the scope's code starts on the main actor joins the scope here (see ``CapturingScope``).
  func enqueueMainActor(_ job: UnownedJob) -> Bool {
    let ownTask = capturingScope?.ownsJob(job) ?? false
    let arrival = ownTask ? .captured : Self.arrival(for: self)
    let work = Work.runnable(MainActorJob(job, scheduler: self))
    let lane = explorationLane(of: work)
    let admission = handOver(describing: "a main-actor job", hopping: true) { state, escape in
      guard state.isCapturing else { return nil }
      return state.enqueue(work, lane: lane, arrival, escape: escape)
    }
    guard let admission else { return false }
    if admission.wake { wakeup.signal() }
    return true
  }

  /// Queues `work`; when it escapes, what it was and where it came from are recorded in the same
  /// critical region that queues it, so the driving call that runs it also reports it.
  func enqueue(work: Work, escaping what: @autoclosure () -> String, isJob: Bool = false) {
    let arrival = !isJob && acceptsCallbacksFromAnyThread ? .onScheduler : Self.arrival(for: self)
    var watch = false
    let lane = explorationLane(of: work)
    let admission = handOver(describing: what(), hopping: isJob) { state, escape in
      let admission = state.enqueue(work, lane: lane, arrival, escape: escape)
      if case .queued = admission { watch = isJob && arrival != .onScheduler && state.armStallWatch() }
      return admission
    }
    if admission?.wake == true { wakeup.signal() }
    if watch { startStallWatch() }
  }

  /// The lane `work` takes when this scheduler explores orderings (`nil` otherwise), read from the job
  /// before any lock is taken: the state machine's choice then makes no runtime call.
  @inline(__always)
  func explorationLane(of work: Work) -> OrderExplorer.Tag? {
    exploresOrderings.load(ordering: .relaxed) ? OrderExplorer.lane(of: work) : nil
  }

  /// Hands work over with `admit`, under the lock. When the state machine answers that the work
  /// escapes, the escape is described after the lock is released (what it is, and where it came from:
  /// the current task and the thread's name, read outside the lock) and the work is handed over again
  /// with the description, in a second critical region that re-checks. Returns the admission, or `nil`
  /// when `admit` refused the work.
  @inline(__always)
  func handOver(
    describing what: @autoclosure () -> String, hopping: Bool = false,
    _ admit: (inout TestSchedulerStateMachine, (what: String, origin: String)?) -> TestSchedulerStateMachine.Admission?
  ) -> TestSchedulerStateMachine.Admission? {
    let first = state.withCriticalRegion { admit(&$0, nil) }
    guard case .describeEscape? = first else { return first }
    let escape = (what: what(), origin: ArrivalContext.describeCurrent(hopping: hopping))
    return state.withCriticalRegion { admit(&$0, escape) }
  }

  /// How work handed over by the calling code arrives: from the scheduler itself when it runs one of
  /// its jobs (or a capturing scope's pump) on this thread, from the calling context otherwise.
  @inline(__always)
  static func arrival(for scheduler: TestScheduler) -> TestSchedulerStateMachine.Arrival {
    CurrentSchedulerSlot.isCurrent(scheduler) ? .onScheduler : .from(.current)
  }

  /// Records that `what` escaped, with where it came from; the next driving call reports it.
  /// (`duringScope`: the caller knows it arrived while its scope ran, which may have ended since.)
  func recordEscape(_ what: String, origin: String, duringScope: Bool? = nil) {
    state.withCriticalRegion { $0.recordEscape(what: what, origin: origin, duringScope: duringScope) }
  }

  /// The serial executor for actors bound to this scheduler.
  public func asUnownedSerialExecutor() -> UnownedSerialExecutor { serialExecutor.asUnownedSerialExecutor() }

  /// The serial executor for actors bound to this scheduler (same as ``asUnownedSerialExecutor()``).
  public var unownedSerialExecutor: UnownedSerialExecutor { asUnownedSerialExecutor() }

  /// Whether the calling code runs inside one of this scheduler's jobs.
  public func isIsolatingCurrentContext() -> Bool? { CurrentSchedulerSlot.isCurrent(self) }

  /// Stops the program unless the calling code runs inside one of this scheduler's jobs.
  public func checkIsolated() {
    checkArgument(CurrentSchedulerSlot.isCurrent(self), "Expected to run on TestScheduler '\(name)'")
  }
}
