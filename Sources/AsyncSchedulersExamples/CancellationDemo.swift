import AsyncSchedulers

enum CancellationDemo {
  static func run() async {
    // snippet: disposables
    let composite = CompositeDisposable()
    composite.add(AnyDisposable { print("  child disposed") })
    let serial = SerialDisposable()
    serial.inner = AnyDisposable { print("  first inner disposed when replaced") }
    serial.inner = AnyDisposable { print("  second inner disposed with the serial") }
    composite.add(serial)
    composite.dispose()  // disposes each child once, outside the lock, in order
    // end-snippet

    // snippet: task-to-disposable
    let scheduler = SerialScheduler()
    let task = Task(executorPreference: scheduler) {
      try await scheduler.sleep(for: .seconds(3600))
    }
    let disposable: any Disposable = task  // a Task is a Disposable: dispose() cancels it
    disposable.dispose()
    let outcome = await task.result
    // end-snippet
    print("  task disposed: \(outcome)")

    // snippet: disposable-to-task
    // Await callback-style work; cancelling the awaiting task disposes the work and throws.
    let value = try? await withCallbackCompletion { (complete: @escaping @Sendable (Result<Int, any Error>) -> Void) in
      scheduler.schedule(after: .milliseconds(5)) { complete(.success(42)) }
    }
    // end-snippet
    print("  callback work returned \(value ?? -1)")
  }
}
