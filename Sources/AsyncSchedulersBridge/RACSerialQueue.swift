import AsyncSchedulers
import Synchronization

/// A serial queue in front of a core scheduler that may run several jobs at once (a
/// ``ConcurrentScheduler``, or any scheduler that is not an ``ActorScheduler``): every RAC scheduler is
/// serial, so its blocks run one at a time, in order, on the core's threads.
///
/// The queue is the package's ``DrainQueue``, whose drainer is a job on the core. A drain runs up to 64 blocks, then schedules itself again, so the core's other work gets a turn.
final class RACSerialQueue: Sendable {
  private let core: any Scheduler
  private let machine = Mutex(DrainQueue<any RunnableJob>())

  init(core: any Scheduler) { self.core = core }

  /// Queues `job` after the jobs already queued.
  func submit(_ job: any RunnableJob) {
    if machine.withCriticalRegion({ $0.post(job) }) { scheduleDrain() }
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
