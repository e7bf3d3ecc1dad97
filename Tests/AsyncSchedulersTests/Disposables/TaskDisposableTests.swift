import AsyncSchedulersTestSupport
import Dispatch
import Synchronization
import Testing

@testable import AsyncSchedulers

@Suite("Task and Disposable")
struct TaskDisposableTests {
  @Test("disposing a task cancels it")
  func disposeCancels() async {
    let scheduler = SerialScheduler()
    let task = Task(executorPreference: scheduler) { () async -> Bool in
      do {
        try await scheduler.sleep(for: .seconds(3600))
        return false
      } catch {
        return error is CancellationError
      }
    }
    let disposable: any Disposable = task
    disposable.dispose()
    #expect(disposable.isDisposed)
    #expect(await task.value)
  }

  @Test("cancelling the task disposes the tied disposable exactly once")
  func cancellationDisposes() async {
    let count = Atomic<Int>(0)
    let entered = Latch()
    let task = Task {
      await withTaskCancellation(disposing: AnyDisposable { count.wrappingAdd(1, ordering: .relaxed) }) {
        entered.signal()
        await withUnsafeContinuation { (c: UnsafeContinuation<Void, Never>) in
          // Resumed by cancellation below through the disposable's observer.
          Parked.shared.park(c)
        }
      }
    }
    #expect(await entered.wait())
    task.cancel()
    task.cancel()
    Parked.shared.resumeAll()
    await task.value
    #expect(count.load(ordering: .relaxed) == 1)
  }

  @Test("an already-cancelled task disposes at once")
  func alreadyCancelled() async {
    let disposable = AnyDisposable()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      await withTaskCancellation(disposing: disposable) {}
    }
    await task.value
    #expect(disposable.isDisposed)
  }

  @Test("awaited callback work returns its result")
  func callbackCompletes() async throws {
    let scheduler = SerialScheduler()
    let value = try await withCallbackCompletion { (complete: @escaping @Sendable (Result<Int, any Error>) -> Void) in
      scheduler.schedule { complete(.success(5)) }
    }
    #expect(value == 5)
  }

  @Test("cancelling the awaiting task disposes the work and throws CancellationError")
  func callbackCancelled() async {
    let work = AnyDisposable()
    let started = Latch()
    let task = Task {
      try await withCallbackCompletion { (_: @escaping @Sendable (Result<Int, any Error>) -> Void) in
        started.signal()
        return work
      }
    }
    #expect(await started.wait())
    task.cancel()
    await #expect(throws: CancellationError.self) { try await task.value }
    #expect(work.isDisposed)
  }

  @Test("an already-cancelled task never starts the callback work")
  func callbackNeverStarts() async {
    let started = Atomic<Bool>(false)
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await withCallbackCompletion { (_: @escaping @Sendable (Result<Int, any Error>) -> Void) in
        started.store(true, ordering: .relaxed)
        return AnyDisposable()
      }
    }
    await #expect(throws: CancellationError.self) { try await task.value }
    let didStart = started.load(ordering: .relaxed)
    #expect(!didStart)
  }

  @Test("10,000 races of completion against cancellation resume every continuation exactly once")
  func completionCancellationRaces() async {
    let stats = RaceStatistics()
    let counter = LifetimeCounter()
    let rounds = 10_000
    let queue = DispatchQueue.global()
    await withTaskGroup(of: Void.self) { group in
      for round in 0..<rounds {
        let task = Task {
          do {
            let token = counter.make()
            let _: Int = try await withCallbackCompletion { complete in
              queue.async {
                complete(.success(round))
                _ = token
              }
              return AnyDisposable { _ = token }
            }
            stats.completions.wrappingAdd(1, ordering: .relaxed)
          } catch {
            stats.cancellations.wrappingAdd(1, ordering: .relaxed)
          }
          stats.resumed.wrappingAdd(1, ordering: .relaxed)
        }
        queue.async { task.cancel() }
        group.addTask { await task.value }
        if round % 500 == 499 { await group.waitForAll() }
      }
    }
    #expect(stats.resumed.load(ordering: .relaxed) == rounds)
    #expect(stats.completions.load(ordering: .relaxed) + stats.cancellations.load(ordering: .relaxed) == rounds)
    // Every closure and disposable (and so every continuation they held) was released.
    let released = Latch()
    queue.async(flags: .barrier) { released.signal() }
    #expect(await released.wait())
    #expect(counter.count == 0)
  }
}

/// Parks continuations until the test resumes them.
final class Parked: Sendable {
  static let shared = Parked()
  private let continuations = Mutex<[UnsafeContinuation<Void, Never>]>([])
  func park(_ continuation: UnsafeContinuation<Void, Never>) {
    continuations.withCriticalRegion { $0.append(continuation) }
  }
  func resumeAll() {
    let all = continuations.withCriticalRegion { list in
      defer { list = [] }
      return list
    }
    for continuation in all { continuation.resume() }
  }
}

final class RaceStatistics: Sendable {
  let resumed = Atomic<Int>(0)
  let completions = Atomic<Int>(0)
  let cancellations = Atomic<Int>(0)
}

@Suite("Scheduler.startTask")
struct StartTaskTests {
  @Test("starts async work on the scheduler from callback code and returns a disposable that cancels it")
  func startTask() async {
    let scheduler = SerialScheduler()
    let started = Latch()
    let outcome = Log<String>()
    let disposable: any Disposable = scheduler.startTask {
      outcome.append(scheduler.isCurrent ? "on scheduler" : "elsewhere")
      started.signal()
      do {
        try await scheduler.sleep(for: .seconds(3600))
        outcome.append("woke")
      } catch {
        outcome.append("cancelled")
      }
    }
    #expect(await started.wait())
    disposable.dispose()
    await (disposable as! Task<Void, Never>).value
    #expect(outcome.values == ["on scheduler", "cancelled"])
  }
}
