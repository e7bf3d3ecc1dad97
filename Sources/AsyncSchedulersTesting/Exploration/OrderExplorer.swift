import AsyncSchedulers

/// The choices of one run exploring orderings: which ready job of a ``TestScheduler`` runs next, made
/// from a seed, recorded as a trace. Pure: it is shown the ready jobs' lanes (read from each job when it
/// was queued, outside the scheduler's lock, see ``lane(of:)``), makes no runtime call and reuses its
/// scratch buffers, so a choice allocates nothing but the trace's growth; the scheduler removes the job
/// it names. Labels (`task 3`) are written only when the trace is read.
///
/// Jobs fall into *lanes*, the units Swift leaves unordered relative to each other: each task's job on
/// the global executor is a lane of its own (a task has one job ready at a time), the main actor's jobs
/// and every other block for the main queue (the stood-in main scheduler's, `DispatchQueue.main.async`)
/// are one lane, as on a device where the main queue is one FIFO, and the scheduler's own serial queue
/// (callbacks, bridged blocks, jobs of actors bound to it) is one lane. Within a lane, the first job is
/// the only candidate: enqueue order is kept.
package struct OrderExplorer {
  /// A unit of ordering.
  package enum Lane: Hashable {
    /// A task's job on the global executor.
    case task(UInt64)
    /// A global job of no task (a default actor's processing job), by address.
    case job(UInt)
    /// The main actor's queue.
    case mainActor
    /// The scheduler's serial queue.
    case scheduler
  }

  /// A ready job's lane and the ID of its task (0 for none), read when it was queued.
  package typealias Tag = (lane: Lane, task: UInt64)

  package let seed: UInt64
  package let strategy: OrderingStrategy
  private var random: SplitMix
  /// Whether choices are made (while the scope's body runs on the scheduler).
  package private(set) var isActive = false
  /// Task IDs to their ordinal in this run, in order of first appearance.
  private var taskOrdinals: [UInt64: Int] = [:]
  /// PCT: each lane's priority (higher runs first); lowered lanes get 1 ..< depth.
  private var priorities: [Lane: Int] = [:]
  /// PCT: the choice numbers (1-based) at which the running lane's priority drops, ascending.
  private var changePoints: [Int] = []
  /// The recorded choices, unlabelled: the instant, the index of the lane that ran among `heads`, and
  /// the range of `recordedHeads` holding the candidates.
  private var decisions: [(instant: SchedulerInstant, chosen: Int, heads: Range<Int>)] = []
  /// The candidates of every recorded choice, one after another.
  private var recordedHeads: [Tag] = []
  /// Scratch buffers of ``choose(among:now:)``, kept between choices.
  private var heads: [(lane: Lane, task: UInt64, offset: Int)] = []
  private var seen = Set<Lane>()
  private var decisionCount = 0
  private var jobCount = 0
  /// A digest of the choices (candidate count and index at each), to count distinct orderings.
  package private(set) var digest: UInt64 = 0xcbf2_9ce4_8422_2325

  /// A run whose choices follow `seed` and `strategy`.
  package init(seed: UInt64, strategy: OrderingStrategy) {
    self.seed = seed
    self.strategy = strategy
    random = SplitMix(seed: seed)
    if case .pct(let depth, let expected) = strategy.kind, depth > 1 {
      var points = Set<Int>()
      while points.count < min(depth - 1, expected) { points.insert(Int(random.next() % UInt64(expected)) + 1) }
      changePoints = points.sorted()
    }
  }

  /// Starts making choices.
  package mutating func activate() { isActive = true }

  /// Starts or stops making choices.
  package mutating func setActive(_ active: Bool) { isActive = active }

  /// The lane of a piece of work, and its task ID (0 for none). Reads the job's header (a runtime
  /// call): the scheduler calls it as the job is queued, before taking its lock.
  package static func lane(of work: Work) -> Tag {
    switch work {
    case .taskJob(let job):
      let task = TaskIdentity.taskID(of: job)
      return task == 0 ? (.job(TaskIdentity.address(of: job)), 0) : (.task(task), task)
    case .runnable(let runnable as MainActorJob):
      return (.mainActor, TaskIdentity.taskID(of: runnable.job))
    case .runnable(is MainQueueWork):
      return (.mainActor, 0)
    case .job(let job):
      return (.scheduler, TaskIdentity.taskID(of: job))
    case .action, .closure, .runnable:
      return (.scheduler, 0)
    }
  }

  /// Chooses the ready job to run next: its offset in `ready` (the lanes and task IDs of the ready
  /// jobs, in enqueue order; `nil` for a job queued before this run explored, which counts as the
  /// scheduler's queue). Only the first job of each lane is a candidate.
  package mutating func choose(among ready: some Sequence<Tag?>, now: SchedulerInstant) -> Int {
    jobCount += 1
    heads.removeAll(keepingCapacity: true)
    seen.removeAll(keepingCapacity: true)
    for (offset, tag) in ready.enumerated() {
      let (lane, task) = tag ?? (.scheduler, 0)
      if task != 0 && taskOrdinals[task] == nil { taskOrdinals[task] = taskOrdinals.count + 1 }
      if seen.insert(lane).inserted { heads.append((lane, task, offset)) }
    }
    guard heads.count > 1 else { return 0 }
    decisionCount += 1
    let chosen = pick()
    digest = (digest ^ UInt64(heads.count)) &* 0x100_0000_01b3
    digest = (digest ^ UInt64(chosen)) &* 0x100_0000_01b3
    if decisions.count < ExplorationTrace.maximumRecordedDecisions {
      let start = recordedHeads.count
      for head in heads { recordedHeads.append((head.lane, head.task)) }
      decisions.append((now, chosen, start..<recordedHeads.count))
    }
    return heads[chosen].offset
  }

  /// The index of the lane to run among `heads` (two or more).
  private mutating func pick() -> Int {
    switch strategy.kind {
    case .random:
      return Int(random.next() % UInt64(heads.count))
    case .pct(let depth, _):
      for head in heads where priorities[head.lane] == nil {
        priorities[head.lane] = depth + Int(random.next() % 1_000_000_000)
      }
      var top = highestHead()
      if let point = changePoints.firstIndex(of: decisionCount) {
        priorities[heads[top].lane] = point + 1
        top = highestHead()
      }
      return top
    }
  }

  private func highestHead() -> Int {
    var best = 0
    for index in heads.indices.dropFirst() where priorities[heads[index].lane]! > priorities[heads[best].lane]! {
      best = index
    }
    return best
  }

  private func label(_ lane: Lane, task: UInt64) -> String {
    let name = taskOrdinals[task].map { "task \($0)" }
    switch lane {
    case .task: return name!
    case .job: return "actor job"
    case .mainActor: return name.map { "main actor (\($0))" } ?? "main actor"
    case .scheduler: return name.map { "scheduler queue (\($0))" } ?? "scheduler queue"
    }
  }

  /// The run's trace so far.
  package var trace: ExplorationTrace {
    let labelled = decisions.map { decision in
      let labels = recordedHeads[decision.heads].map { label($0.lane, task: $0.task) }
      return ExplorationTrace.Decision(instant: decision.instant, ran: labels[decision.chosen], ready: labels)
    }
    return ExplorationTrace(
      seed: seed, strategy: strategy, decisions: labelled, decisionCount: decisionCount, jobCount: jobCount)
  }
}
