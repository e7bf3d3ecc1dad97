import AsyncSchedulers

// The core-backed Rx schedulers are task executors: `Task(executorPreference: MainScheduler.instance)`,
// `withTaskExecutorPreference(SerialDispatchQueueScheduler(…))` and `async let` children under them run
// their jobs on the scheduler's core, where its Rx work runs (through the virtual-time seam: in a
// `.virtualTime` test, on the test's scheduler). They are not native `Scheduler`s yet (RxSwift's `now`
// is a `Date` where a `Clock`'s is an instant: the concrete `now` would be the `Date` Rx code reads, the
// `Clock`'s would come from a protocol extension); pass `.core` where a native scheduler is expected, or
// use the native signals' operators, which take Rx schedulers directly.

extension SerialDispatchQueueScheduler: TaskExecutor {
  /// Hands a job of a task that prefers this scheduler to its core; it runs there, in order with the
  /// scheduler's Rx work (serially when the core is serial). Never blocks.
  public func enqueue(_ job: consuming ExecutorJob) { scheduling.target.enqueue(job) }
}

extension ConcurrentDispatchQueueScheduler: TaskExecutor {
  /// Hands a job of a task that prefers this scheduler to its core (concurrent). Never blocks.
  public func enqueue(_ job: consuming ExecutorJob) { scheduling.target.enqueue(job) }
}

extension ConcurrentMainScheduler: TaskExecutor {
  /// Hands a job of a task that prefers this scheduler to the main actor's core. Never blocks.
  public func enqueue(_ job: consuming ExecutorJob) { asynchronous.target.enqueue(job) }
}
