/// What a ``TestScheduler`` asks of the capturing scope it serves: the scheduler's side of the seam
/// with the scope. The scheduler holds the scope while it captures (given by
/// `beginCapturing(_:)`, dropped by `endCapturing()`) and knows it only through this protocol: it never
/// reads the process's scope registry or the runtime hooks, which are the scope's business.
package protocol CapturingScope: AnyObject, Sendable {
  /// The scope's identifier, unique in the process, never 0.
  var id: UInt64 { get }

  /// Whether `job`, handed to the scheduler's task-executor or main-actor face, is a job of one of the
  /// scope's tasks (then it is never an escape, whoever enqueues it). A task created since the scope
  /// began, enqueued by the scope's own code, joins the scope here. Called outside the scheduler's lock;
  /// never blocks beyond a short lock of the scope's.
  func ownsJob(_ job: UnownedJob) -> Bool
}
