import AsyncSchedulers

/// How a ``RACScheduler``'s blocks reach its core, decided once from the core's kind: RAC's schedulers
/// are serial, so a core that is not gets a serial queue in front of it.
enum RACSchedulerRoute: Sendable {
  /// A ``SerialScheduler`` (a final class): blocks go straight into its queue, with no protocol dispatch.
  case serialCore(SerialScheduler)
  /// Another serial core that queues bridge jobs itself (the main-actor scheduler, the virtual-time
  /// `TestScheduler`).
  case submitter(any RunnableJobSubmitting)
  /// A core that is not serial (a concurrent scheduler wider than one): a serial queue in front of it.
  case serialQueue(RACSerialQueue)
  /// A serial core that takes only closures (`execute`).
  case closures

  /// The route to `core`.
  init(for core: any Scheduler) {
    if let serialCore = core as? SerialScheduler {
      self = .serialCore(serialCore)
    } else if core is any ActorScheduler || (core as? ConcurrentScheduler)?.maxConcurrentJobs == 1 {
      self = (core as? any RunnableJobSubmitting).map { .submitter($0) } ?? .closures
    } else {
      self = .serialQueue(RACSerialQueue(core: core))
    }
  }

  /// Whether the core, running a block, already sets itself as the current scheduler (its worker does),
  /// so a block needs no wrapper unless several `RACScheduler`s share the core.
  var setsCurrentItself: Bool {
    switch self {
    case .serialCore, .submitter: true
    case .serialQueue, .closures: false
    }
  }
}
