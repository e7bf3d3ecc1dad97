import AsyncSchedulers

/// What a ``TestScheduler`` has pending, copied under its lock so that failure messages are built
/// after the lock is released (``TestSchedulerStateMachine`` builds no message).
package struct PendingWorkSnapshot: Sendable {
  /// A ready job, by kind.
  package enum ReadyKind: Sendable {
    case callback
    case actorJob
    case taskJob
    case mainQueueBlock
    case bridgedBlock
  }

  /// A pending timer: its deadline, its interval when it repeats, and the plain sleep it stands for
  /// when that sleep's task has a name.
  package struct Timer: Sendable {
    var deadline: SchedulerInstant
    var repeatInterval: Duration?
    var label: String?
  }

  /// The clock's reading.
  package var now: SchedulerInstant
  /// The ready jobs, in FIFO order.
  package var ready: [ReadyKind]
  /// The pending timers, in firing order.
  package var timers: [Timer]
  /// Timers of plain sleeps whose tasks were cancelled (inert: they only free the runtime's job).
  package var abandonedSleeps: Int

  /// Pending work a test must account for: ready work and timers, less inert sleeps.
  package var liveCount: Int { ready.count + timers.count - abandonedSleeps }

  /// A readable list of what is pending, for failure messages: "TestScheduler 'name' at … has n
  /// pending item(s):" and one line per item.
  package func describe(name: String) -> String {
    var lines: [String] = []
    for kind in ready {
      switch kind {
      case .callback: lines.append("  - callback job, ready at \(now)")
      case .actorJob: lines.append("  - actor job, ready at \(now)")
      case .taskJob: lines.append("  - task job, ready at \(now)")
      case .mainQueueBlock: lines.append("  - main-queue block, ready at \(now)")
      case .bridgedBlock: lines.append("  - bridged block (RACScheduler or an Rx scheduler), ready at \(now)")
      }
    }
    for timer in timers {
      if let interval = timer.repeatInterval {
        lines.append("  - repeating timer due at \(timer.deadline), every \(interval)")
      } else if let label = timer.label {
        lines.append("  - \(label), due at \(timer.deadline)")
      } else {
        lines.append("  - timer or plain sleep due at \(timer.deadline)")
      }
    }
    let note =
      abandonedSleeps == 0
      ? "" : "\n  (and \(abandonedSleeps) inert timer(s) of plain sleeps whose tasks were cancelled)"
    return "TestScheduler '\(name)' at \(now) has \(liveCount) pending item(s):\n" + lines.joined(separator: "\n")
      + note
  }
}

/// What one driving call ran at one instant before it stopped as runaway work, copied under the
/// scheduler's lock; the message is built after.
package struct RunawaySnapshot: Sendable {
  package var callbacks: Int
  package var bridged: Int
  package var mainQueueBlocks: Int
  package var tasks: Int
  package var timers: Int
  package var pending: PendingWorkSnapshot

  /// The failure message: how many jobs ran at which instant, of which kinds, and what is pending.
  package func describe(name: String) -> String {
    var kinds: [String] = []
    if callbacks > 0 { kinds.append("\(callbacks) callback job(s)") }
    if bridged > 0 { kinds.append("\(bridged) bridged block(s) (RACScheduler or an Rx scheduler)") }
    if mainQueueBlocks > 0 { kinds.append("\(mainQueueBlocks) main-queue block(s)") }
    if tasks > 0 { kinds.append("\(tasks) task or actor job(s)") }
    if timers > 0 { kinds.append("\(timers) timer(s)") }
    let total = callbacks + bridged + mainQueueBlocks + tasks + timers
    return "TestScheduler '\(name)' stopped after running \(total) jobs at \(pending.now) without the clock "
      + "moving: work keeps scheduling more work at the same instant (a callback or block that "
      + "reschedules itself at once, a recursive block that always recurses, a loop polling with perform "
      + "or Task.yield). It ran: \(kinds.joined(separator: ", ")). Give the work a delay on the scheduler's "
      + "clock, or raise maximumJobsPerInstant if this much work at one instant is intended.\n"
      + pending.describe(name: name)
  }
}
