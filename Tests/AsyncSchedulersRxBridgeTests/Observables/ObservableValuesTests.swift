import AsyncSchedulers
import AsyncSchedulersRxBridge
import Testing

@Suite("Observable and traits in async code: values, value, create from async work")
struct ObservableValuesTests {
  @Test("values of an observable that never ends throws CancellationError when the task is cancelled")
  func valuesThrowCancellation() async {
    let task = Task {
      do {
        for try await _ in Observable<Int>.never().values {}
        return "ended"
      } catch is CancellationError {
        return "cancelled"
      } catch {
        return "other"
      }
    }
    task.cancel()
    #expect(await task.value == "cancelled")
  }

  @Test("Maybe.value is nil for an empty maybe; Completable.value returns on completion and throws the error")
  func maybeAndCompletableValue() async throws {
    #expect(try await Maybe<Int>.empty().value == nil)
    #expect(try await Maybe.just(4).value == 4)
    try await Completable.empty().value
    await #expect(throws: TestError.self) { try await Completable.error(TestError()).value }
  }

  @Test("Single.create runs async work for each subscription and cancels it on dispose")
  func singleFromAsyncWork() async throws {
    let single = Single<Int>.create { 21 * 2 }
    #expect(try await single.value == 42)
    let detached = Single<Int>.create(detached: true, priority: .low) { 7 }
    #expect(try await detached.value == 7)
  }

  @Test("an async sequence becomes an observable whose task runs at the given priority")
  func asObservableWithPriority() async throws {
    let stream = AsyncStream<Int> { continuation in
      continuation.yield(1)
      continuation.finish()
    }
    #expect(try await stream.asObservable(priority: .high).toArray().value == [1])
  }

  @Test("a trait that ends while being subscribed gives its result to a task already cancelled")
  func valueInACancelledTask() async {
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      let completed: Void? = try? await Completable.empty().value
      let maybe = try? await Maybe.just(5).value
      let never: Void? = try? await Completable.never().value
      return (completed != nil, maybe, never == nil)
    }
    let (completed, maybe, neverThrew) = await task.value
    #expect(completed && maybe == 5 && neverThrew)
  }
}
