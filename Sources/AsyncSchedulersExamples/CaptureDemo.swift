import AsyncSchedulers
import AsyncSchedulersTesting

/// A debounce written the swift-async-algorithms way (an internal `Task {}` and `clock.sleep`), tested
/// on virtual time by capturing its tasks.
enum CaptureDemo {
  static func run() async {
    // snippet: capture-all-tasks
    let scheduler = TestScheduler()
    let searched = await scheduler.capturingAllTasks {
      let (keystrokes, typing) = AsyncStream.makeStream(of: String.self)
      // `debounced` runs an internal Task {} and sleeps on the clock it is given: inside the scope
      // those tasks run on the scheduler, one job at a time, in order.
      let searches = Task {
        var searched: [String] = []
        for await query in keystrokes.debounced(for: .milliseconds(300), clock: scheduler) {
          searched.append("\(query) at \(scheduler.now)")
        }
        return searched
      }
      typing.yield("s")
      scheduler.advance(by: .milliseconds(100))
      typing.yield("sw")
      scheduler.advance(by: .milliseconds(400))
      typing.finish()
      return await searches.value
    }
    assert(searched == ["sw at 0.4 seconds"])
    // end-snippet
    print("  debounced on captured tasks: \(searched)")
  }
}
