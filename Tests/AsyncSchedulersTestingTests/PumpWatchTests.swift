import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import Dispatch
import Foundation
import Testing

/// Jobs that block the scope's thread: the watch (off the pump) finds them at the stall timeout, the
/// failure is reported on the test, and the scope goes on on another thread so the test ends.
@Suite("A job that blocks the scope's thread")
struct PumpWatchTests {
  /// A scope (stall timeout 0.3 s) whose body waits in `DispatchSemaphore.wait()` for a task of the
  /// scope to signal; returns the failures reported. The scheduler is made in the collecting context,
  /// so its reports from the watch's thread are collected too.
  static func bodyBlockedOnATaskOfTheScope() async -> [String] {
    await IssueCapture.collecting {
      let scheduler = TestScheduler()
      await scheduler.capturingAllTasks(stallTimeout: .milliseconds(300)) {
        let semaphore = DispatchSemaphore(value: 0)
        Task { semaphore.signal() }
        semaphore.wait()
      }
    }
  }

  @Test("a body blocked in DispatchSemaphore.wait() for a task of the scope is reported, and the test ends")
  func blockedBodyEnds() async {
    let issues = await Self.bodyBlockedOnATaskOfTheScope()
    #expect(issues.count == 1)
    #expect(issues.first?.contains("blocked the scope's thread for 0.3 seconds") == true)
    #expect(issues.first?.contains("Await instead of blocking") == true)
  }

  @Test("a task of the scope blocked on another task's signal is reported, and both go on")
  func blockedTaskEnds() async {
    let log = Log<String>()
    let issues = await IssueCapture.collecting {
      let scheduler = TestScheduler()
      await scheduler.capturingAllTasks(stallTimeout: .milliseconds(300)) {
        let semaphore = DispatchSemaphore(value: 0)
        let waiter = Task {
          semaphore.wait()
          log.append("waiter went on")
        }
        let signaller = Task {
          try? await Task.sleep(for: .seconds(1))
          log.append("signal at \(scheduler.now)")
          semaphore.signal()
        }
        await signaller.value
        await waiter.value
      }
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains("blocked the scope's thread") == true)
    #expect(log.values == ["signal at 1.0 seconds", "waiter went on"])
  }

  @Test("a job that blocks for less than the stall timeout is not reported")
  func shortBlockIsFine() async {
    let scheduler = TestScheduler()
    let issues = await IssueCapture.collecting {
      await scheduler.capturingAllTasks(stallTimeout: .seconds(2)) {
        // A block that ends by itself: a raw thread, outside the scope, signals (an asyncAfter here
        // would be on the virtual clock, which cannot move while the pump is blocked: the case above).
        let semaphore = DispatchSemaphore(value: 0)
        Thread { semaphore.signal() }.start()
        semaphore.wait()
        try? await Task.sleep(for: .seconds(1))
      }
    }
    #expect(issues.isEmpty)
    #expect(scheduler.now == .zero.advanced(by: .seconds(1)))
  }

  @Test("scopes blocked in parallel are each reported on their own scope, and all end")
  func parallelBlockedScopes() async {
    let counts = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<4 {
        group.addTask {
          let issues = await Self.bodyBlockedOnATaskOfTheScope()
          return issues.filter { $0.contains("blocked the scope's thread") }.count
        }
      }
      return await group.reduce(into: []) { $0.append($1) }
    }
    #expect(counts == [1, 1, 1, 1])
  }
}

extension PumpWatchTests {
  @Test("a body waiting on the thread for an asyncAfter of the scope (on the virtual clock) is reported, and ends")
  func blockedOnVirtualTimer() async {
    let scheduler = Locked<TestScheduler?>(nil)
    let issues = await IssueCapture.collecting {
      let made = TestScheduler()
      scheduler.withCriticalRegion { $0 = made }
      await made.capturingAllTasks(stallTimeout: .milliseconds(300)) {
        let semaphore = DispatchSemaphore(value: 0)
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { semaphore.signal() }
        semaphore.wait()
        try? await Task.sleep(for: .seconds(1))
      }
    }
    #expect(issues.count == 1)
    #expect(issues.first?.contains("blocked the scope's thread") == true)
    // The timer fired at its virtual instant once the new pump ran it, the sleep a second after.
    #expect(scheduler.withCriticalRegion { $0?.now } == .zero.advanced(by: .milliseconds(1_050)))
  }
}
