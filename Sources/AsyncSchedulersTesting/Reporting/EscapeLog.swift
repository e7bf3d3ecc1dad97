import AsyncSchedulers

/// What reached a ``TestScheduler`` from outside it since the last driving call: the first few
/// escapes in detail, and how many there were. Pure: the scheduler records under its lock and reports
/// the drained log after releasing it.
package struct EscapeLog {
  /// One piece of work that escaped.
  package struct Entry: Sendable, Equatable {
    /// What escaped ("a task or actor job", "a sleep due at 0.25 s", "a timer due at 1.0 seconds", …).
    package var what: String
    /// Where it came from, as far as can be known.
    package var origin: String
    /// The virtual time when it arrived.
    package var at: SchedulerInstant
    /// Whether it arrived while a capturing scope ran (then wrapping the code in one is no advice).
    package var duringScope: Bool

    package init(what: String, origin: String, at: SchedulerInstant, duringScope: Bool = false) {
      self.what = what
      self.origin = origin
      self.at = at
      self.duringScope = duringScope
    }
  }

  /// The most escapes described in one report; the rest are counted.
  package static let detailLimit = 5

  package private(set) var entries: [Entry] = []
  package private(set) var count = 0
  /// Escapes recorded since the scheduler was created (never drained).
  package private(set) var total = 0

  package init() {}

  package var isEmpty: Bool { count == 0 }

  package mutating func record(_ entry: Entry) {
    count += 1
    total += 1
    if entries.count < Self.detailLimit { entries.append(entry) }
  }

  /// Takes the recorded escapes, leaving the log empty.
  package mutating func drain() -> EscapeLog {
    defer {
      entries = []
      count = 0
    }
    return self
  }

  /// The failure message for the drained escapes.
  package func describe(name: String) -> String {
    var lines = [
      "TestScheduler '\(name)': \(count) piece(s) of work reached it from outside, so when they ran was "
        + "decided by the real machine, not by the virtual clock:"
    ]
    for entry in entries {
      lines.append("  - \(entry.what), at virtual time \(entry.at), from \(entry.origin)")
    }
    if count > entries.count { lines.append("  - and \(count - entries.count) more") }
    if !entries.isEmpty && entries.allSatisfy(\.duringScope) {
      lines.append(
        "The code already runs in a capturing scope: work reaches the scheduler from outside only through "
          + "what the scope cannot see or put on its clock, and each origin above says what that was.")
    } else {
      lines.append(
        "Fix it in one of two ways: keep the work on the scheduler (start tasks with "
          + "Task(executorPreference: scheduler), bind actors to it, sleep on its clock instead of Task.sleep), "
          + "or run the code inside `await scheduler.capturingAllTasks { … }`, which routes unstructured "
          + "tasks, Task.detached and default actors to the scheduler.")
    }
    return lines.joined(separator: "\n")
  }
}
