import AsyncSchedulers

/// Jobs counted by kind, to name runaway work.
struct JobCounts {
  var callbacks = 0
  var bridged = 0
  var tasks = 0
  var timers = 0
  var total: Int { callbacks + bridged + tasks + timers }

  mutating func count(_ work: Work) {
    switch work {
    case .action, .closure: callbacks += 1
    case .runnable: bridged += 1
    case .job, .taskJob: tasks += 1
    }
  }
}
