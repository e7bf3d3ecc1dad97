import AsyncSchedulers

/// What the events of ``TestSchedulerStateMachine`` are told and what they answer: how work arrived, and
/// the actions the scheduler takes after releasing its lock.
extension TestSchedulerStateMachine {
  /// How a piece of work reached the scheduler.
  package enum Arrival: Equatable {
    /// From code the scheduler is running (a job, a timer, or a capturing scope's pump).
    case onScheduler
    /// From a job the global-executor hook captured during a capturing scope.
    case captured
    /// From the given context, outside the scheduler.
    case from(ArrivalContext)
  }

  /// What starting or ending a capturing scope asks of the scheduler.
  package struct ScopeChange {
    /// Wake the blocked waiter (the pump, which then sees the change).
    package var wake: Bool
    /// Resume these callers of `settle()` (the scope ended).
    package var settled: [CheckedContinuation<Void, Never>]
    /// The virtual instant the scope began at.
    package var start: SchedulerInstant
  }

  /// What a capturing scope's pump does next.
  package enum PumpStep {
    /// Run this ready job.
    case run(Work)
    /// Nothing is ready and callers of `settle()` wait: resume them (nothing else is done).
    case settled([CheckedContinuation<Void, Never>])
    /// Nothing is ready: block until work arrives (the waiter flag is set).
    case wait
    /// The scope ended.
    case stop
  }

  /// How a driving call may start.
  package enum DriveAdmission {
    /// It drives: the driving flag is set until ``endDrivingCall()``.
    case drive
    /// Refused: another driving call runs (they may not nest).
    case nested
    /// Refused: a capturing scope runs and the caller is not its code.
    case outsideScope
  }

  /// What handing work over did.
  package enum Admission: Equatable {
    /// Queued; `wake`: the blocked waiter must be woken. `escaped`: it escaped, and the escape was
    /// recorded with the description given.
    case queued(wake: Bool, escaped: Bool)
    /// Nothing was queued: the work escapes the scheduler and no description was given. Describe it
    /// (after releasing the lock: where it came from) and hand it over again with the description.
    case describeEscape

    /// Whether the blocked waiter must be woken.
    package var wake: Bool { if case .queued(let wake, _) = self { wake } else { false } }
  }
}
