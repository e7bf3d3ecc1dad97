import AsyncSchedulers
import Dispatch

/// Where the testing module's stall watches fire: on a queue of their own, never on the global queues.
/// On Linux those share Swift's cooperative pool, which the very tests a watch is for (tasks blocked on
/// threads) can saturate for as long as they block; a watch that needed that pool would wait for the
/// stall it watches.
enum WatchThreads {
  /// The serial queue the stall watches' timers fire on (a private queue: Dispatch gives it a thread
  /// even when the global queues' threads are all blocked).
  static let timers = DispatchQueue(label: "AsyncSchedulersTesting watches")
}
