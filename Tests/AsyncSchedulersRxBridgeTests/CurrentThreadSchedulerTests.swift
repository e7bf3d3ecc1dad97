import AsyncSchedulers
import AsyncSchedulersRxBridge
import Testing

@Suite("CurrentThreadScheduler")
struct CurrentThreadSchedulerTests {
  @Test("the outer action runs at once; nested schedules run after it, in order, before schedule returns")
  func trampolines() {
    let log = Log()
    #expect(CurrentThreadScheduler.isScheduleRequired)
    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
      log("outer start, required: \(CurrentThreadScheduler.isScheduleRequired)")
      _ = CurrentThreadScheduler.instance.schedule(()) { _ in
        log("first nested")
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
          log("nested in nested")
          return Disposables.create()
        }
        return Disposables.create()
      }
      _ = CurrentThreadScheduler.instance.schedule(()) { _ in
        log("second nested")
        return Disposables.create()
      }
      log("outer end")
      return Disposables.create()
    }
    log("returned")
    #expect(
      log.values == [
        "outer start, required: false", "outer end", "first nested", "second nested", "nested in nested", "returned",
      ])
    #expect(CurrentThreadScheduler.isScheduleRequired)
  }

  @Test("a nested schedule disposed before its turn never runs")
  func disposeNested() {
    let log = Log()
    _ = CurrentThreadScheduler.instance.schedule(()) { _ in
      let nested = CurrentThreadScheduler.instance.schedule(()) { _ in
        log("nested")
        return Disposables.create()
      }
      nested.dispose()
      return Disposables.create()
    }
    #expect(log.values.isEmpty)
  }
}
