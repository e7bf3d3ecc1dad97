import AsyncSchedulers

/// A job handed to a ``TestScheduler`` as a `RunnableJob` that says what it is, so failure messages
/// (runaway work, pending work) name it: the scope's main-actor jobs and its main-queue blocks conform;
/// any other runnable job is a bridged block (a RAC or Rx scheduler's).
///
/// The seam runs one way: the scope's types conform to it, and the virtual-time room names none of them.
protocol NamedRunnableJob: RunnableJob {
  /// What the job is.
  var kind: RunnableJobKind { get }
}

/// What a runnable job on a ``TestScheduler`` is, for failure messages.
enum RunnableJobKind {
  /// A job of a task or an actor (a main-actor job of a capturing scope).
  case taskJob
  /// A block for the main queue (`DispatchQueue.main.async`, a stood-in main scheduler's callback).
  case mainQueueBlock
  /// A block a bridged scheduler handed over (RACScheduler, an Rx scheduler).
  case bridgedBlock

  /// The kind of `job`.
  init(of job: any RunnableJob) { self = (job as? any NamedRunnableJob)?.kind ?? .bridgedBlock }
}
