import AsyncSchedulers
import AsyncSchedulersTestSupport
import Testing

@Suite("ImmediateScheduler")
struct ImmediateSchedulerTests {
  @Test("runs actions inline and returns a finished handle")
  func inline() {
    let log = Log<Int>()
    let handle = ImmediateScheduler.shared.schedule { log.append(1) }
    log.append(2)
    #expect(log.values == [1, 2])
    #expect(handle.isDisposed)
  }

  @Test("does not set the current scheduler: the action sees the caller's")
  func inheritsCurrent() {
    #expect(Schedulers.current == nil)
    ImmediateScheduler.shared.schedule { #expect(Schedulers.current == nil) }
  }

  @Test("a timed action blocks the caller until its deadline, then runs inline")
  func timedBlocks() {
    let scheduler = ImmediateScheduler.shared
    let deadline = scheduler.now.advanced(by: .milliseconds(5))
    let log = Log<Bool>()
    scheduler.schedule(at: deadline) { log.append(scheduler.now >= deadline) }
    #expect(log.values == [true])
  }

  @Test("a repeating schedule is a precondition failure")
  func repeatingFails() async {
    await #expect(processExitsWith: .failure) {
      ImmediateScheduler.shared.scheduleRepeating(every: .seconds(1)) {}
    }
  }

  @Test("a task preferring it starts on the calling thread")
  func taskExecutor() async {
    let value = await Task(executorPreference: ImmediateScheduler.shared) { 3 }.value
    #expect(value == 3)
  }
}
