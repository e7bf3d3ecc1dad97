import AsyncSchedulersTestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import AsyncSchedulers

@Suite("Faults")
struct FaultTests {
  /// How long a blocking job waits for its release at most (a bound, so a failing test cannot hang):
  /// 90 s, and 20 minutes under ThreadSanitizer, where the whole suite running beside the test made its
  /// own steps take over 90 s and the blocked job gave up before the test released it (and the runtime
  /// can stall every thread for minutes at the start of the sanitized run: see `Latch.wait`).
  private static let blockBound: Double = ThreadSanitizerHooks.shared == nil ? 90 : 1_200

  @Test("a job blocking a serial scheduler for seconds delays only that scheduler")
  func blockedSchedulerDelaysOnlyItself() async {
    let blocked = SerialScheduler(name: "fault.blocked")
    let other = SerialScheduler(name: "fault.other")
    let release = DispatchSemaphore(value: 0)
    let blockedStarted = Latch()
    let afterBlock = Log<String>()
    blocked.execute {
      blockedStarted.signal()
      _ = release.wait(timeout: .now() + Self.blockBound)
    }
    blocked.execute { afterBlock.append("blocked scheduler's next job") }
    #expect(await blockedStarted.wait())
    // Another scheduler keeps running jobs and timers while the first is blocked.
    let otherRan = Latch(count: 2)
    other.execute { otherRan.signal() }
    other.execute(after: .milliseconds(5)) { otherRan.signal() }
    #expect(await otherRan.wait(timeout: .seconds(20)))
    #expect(afterBlock.values.isEmpty)
    release.signal()
    let drained = Latch()
    blocked.execute { drained.signal() }
    #expect(await drained.wait())
    #expect(afterBlock.values == ["blocked scheduler's next job"])
  }

  @Test("more blocked schedulers than cores still leave the shared pool to the others", arguments: [3])
  func manyBlockedSchedulers(count: Int) async {
    let release = DispatchSemaphore(value: 0)
    let started = Latch(count: count)
    let schedulers = (0..<count).map { SerialScheduler(name: "fault.blocked.\($0)") }
    for scheduler in schedulers {
      scheduler.execute {
        started.signal()
        _ = release.wait(timeout: .now() + Self.blockBound)
      }
    }
    #expect(await started.wait(timeout: .seconds(20)))
    let other = SerialScheduler(name: "fault.free")
    let ran = Latch()
    other.execute { ran.signal() }
    #expect(await ran.wait(timeout: .seconds(20)))
    for _ in 0..<count { release.signal() }
  }
}

@Suite("Faults, crash output")
struct FaultCrashTests {
  @Test("a job that traps takes the process down with its own message, as a Dispatch block would")
  func trappingJobCrashesTheProcess() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let scheduler = SerialScheduler(name: "fault.trapping")
      scheduler.execute { preconditionFailure("the job's own message") }
      // The process ends in the job; this bound only keeps a regression from hanging the test.
      _ = DispatchSemaphore(value: 0).wait(timeout: .now() + 30)
    }
    #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("the job's own message"))
  }
}
