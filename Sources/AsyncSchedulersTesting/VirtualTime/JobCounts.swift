import AsyncSchedulers

/// Jobs counted by kind, to name runaway work.
struct JobCounts {
  var callbacks = 0
  var bridged = 0
  var mainQueueBlocks = 0
  var tasks = 0
  var timers = 0
  var total: Int { callbacks + bridged + mainQueueBlocks + tasks + timers }

  mutating func count(_ work: Work) {
    switch PendingWorkSnapshot.ReadyKind(work) {
    case .callback: callbacks += 1
    case .bridgedBlock: bridged += 1
    case .mainQueueBlock: mainQueueBlocks += 1
    case .actorJob, .taskJob: tasks += 1
    }
  }
}
