import AsyncSchedulers

/// The snippets that only the DocC articles show (README.md and Migration.md take theirs from the other
/// demonstrations); `main.swift` runs them like the rest.
enum ArticleSnippets {
  static func run() async {
    await taskChildren()
    await timers()
    await startTask()
  }

  static func taskChildren() async {
    // snippet: task-children
    let scheduler = SerialScheduler(name: "children")
    let allOnScheduler = await withTaskExecutorPreference(scheduler) {
      async let child = Schedulers.current === scheduler  // `async let` children inherit the preference
      let grouped = await withTaskGroup(of: Bool.self) { group in
        for _ in 0..<3 { group.addTask { Schedulers.current === scheduler } }  // and so do group children
        return await group.allSatisfy { $0 }
      }
      let childOnScheduler = await child
      return childOnScheduler && grouped
    }
    // end-snippet
    print("  async let and task-group children ran on the scheduler: \(allOnScheduler)")
  }

  static func timers() async {
    let log = Log()
    // snippet: timers
    let scheduler = SerialScheduler(name: "timers")
    let deadline = scheduler.now.advanced(by: .milliseconds(50))
    // Never before the deadline; 10 ms of leeway lets it share a wake-up with other timers.
    let reminder = scheduler.schedule(at: deadline, leeway: .milliseconds(10)) { log.add("deadline reached") }
    // No handle: it cannot be cancelled, and nothing is allocated but the closure.
    scheduler.execute(after: .milliseconds(5)) { log.add("fire and forget") }
    // On the grid now + 20 ms × k, never drifting; up to 2 ms late to share wake-ups.
    let poll = scheduler.scheduleRepeating(every: .milliseconds(20), leeway: .milliseconds(2)) { log.add("poll") }
    // The async way: ticks on the scheduler's clock; cancelling the task stops them.
    let heartbeat = Task(executorPreference: scheduler) {
      for await tick in scheduler.ticks(every: .milliseconds(20), leeway: .milliseconds(2)) {
        log.add("heartbeat at \(tick)")
      }
    }
    // end-snippet
    try? await scheduler.sleep(until: deadline.advanced(by: .milliseconds(15)))
    poll.dispose()
    heartbeat.cancel()
    await heartbeat.value
    print("  timers: \(log.lines.filter { $0 == "poll" }.count) polls, reminder disposed: \(reminder.isDisposed)")
  }

  static func startTask() async {
    // snippet: start-task
    let scheduler = SerialScheduler(name: "legacy")
    // From callback code: start async work on the scheduler and keep it as a disposable.
    let work: any Disposable = scheduler.startTask {
      try? await scheduler.sleep(for: .seconds(3600))
    }
    work.dispose()  // cancels the task: its sleep throws at once
    // From async code: dispose callback work when the current task is cancelled.
    let timer = scheduler.scheduleRepeating(every: .milliseconds(10)) {}
    let outer = Task {
      await withTaskCancellation(disposing: timer) {
        try? await scheduler.sleep(for: .seconds(3600))
      }
    }
    outer.cancel()  // cancels the sleep and disposes the timer
    // end-snippet
    await outer.value
    print("  start-task: timer disposed with the task: \(timer.isDisposed)")
  }
}
