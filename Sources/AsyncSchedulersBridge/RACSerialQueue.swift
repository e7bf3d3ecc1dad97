import AsyncSchedulers
import Synchronization

/// What a ``RACSerialQueue`` does next; pure, returns what to do.
///
/// Jobs wait in FIFO order; at most one drain runs at a time on the core, so jobs never overlap.
package struct RACSerialQueueStateMachine<Job> {
  private var pending = FIFOBuffer<Job>()
  /// Whether a drain is scheduled or running on the core.
  package private(set) var isDraining = false

  /// An empty queue.
  package init() {}

  /// The number of jobs waiting.
  package var count: Int { pending.count }

  /// Queues `job`; returns `true` when a drain must be scheduled on the core.
  package mutating func enqueue(_ job: Job) -> Bool {
    pending.append(job)
    if isDraining { return false }
    isDraining = true
    return true
  }

  /// The next job for the running drain, or `nil` when the queue is empty (the drain ends).
  package mutating func next() -> Job? {
    if !isDraining { fatalError("RACSerialQueue: next() outside a drain") }
    guard let job = pending.popFirst() else {
      isDraining = false
      return nil
    }
    return job
  }

}

/// A serial queue in front of a core scheduler that may run several jobs at once (a
/// ``ConcurrentScheduler``, or any scheduler that is not an ``ActorScheduler``): every RAC scheduler is
/// serial, so its blocks run one at a time, in order, on the core's threads.
///
/// A drain runs up to 64 blocks, then schedules itself again, so the core's other work gets a turn.
final class RACSerialQueue: Sendable {
  private let core: any Scheduler
  private let machine = Mutex(RACSerialQueueStateMachine<any RunnableJob>())

  init(core: any Scheduler) { self.core = core }

  /// Queues `job` after the jobs already queued.
  func submit(_ job: any RunnableJob) {
    if machine.withCriticalRegion({ $0.enqueue(job) }) { scheduleDrain() }
  }

  private func scheduleDrain() {
    core.execute { [self] in drain() }
  }

  private func drain() {
    Schedulers.withCurrent(core) {
      for _ in 0..<64 {
        guard let job = machine.withCriticalRegion({ $0.next() }) else { return }
        job.runJob()
      }
      // Budget spent, still draining: continue in a new job on the core.
      scheduleDrain()
    }
  }
}
