import AsyncSchedulers
import AsyncSchedulersRxBridge
import AsyncSchedulersTestSupport
import Foundation
import Testing

@Suite("OperationQueueScheduler")
struct OperationQueueSchedulerTests {
  @Test("actions run as operations of the queue; one disposed before it starts never runs")
  func runsAndCancels() async {
    let queue = OperationQueue()
    queue.maxConcurrentOperationCount = 1
    queue.isSuspended = true
    let scheduler = OperationQueueScheduler(operationQueue: queue, queuePriority: .high)
    let log = Log()
    let done = Latch()
    _ = scheduler.schedule(1) { value in
      log("ran \(value)")
      return Disposables.create()
    }
    let cancelled = scheduler.schedule(2) { value in
      log("ran \(value)")
      return Disposables.create()
    }
    _ = scheduler.schedule(3) { value in
      log("ran \(value)")
      done.signal()
      return Disposables.create()
    }
    cancelled.dispose()
    queue.isSuspended = false
    #expect(await done.wait())
    #expect(log.values == ["ran 1", "ran 3"])
  }

  @Test("a queue that can run nothing (maxConcurrentOperationCount 0) stops the program with a message")
  func zeroWidthQueue() async throws {
    let result = try await #require(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let queue = OperationQueue()
      queue.maxConcurrentOperationCount = 0
      _ = OperationQueueScheduler(operationQueue: queue)
    }
    #expect(String(decoding: result.standardErrorContent, as: UTF8.self).contains("maxConcurrentOperationCount is 0"))
  }
}
