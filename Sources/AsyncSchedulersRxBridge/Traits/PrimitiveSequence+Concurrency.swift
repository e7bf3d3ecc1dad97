import Synchronization

extension Single {
  /// A `Single` of the result of `work`, run in a new task for each subscription (RxSwift 6.6's
  /// `Single.create(detached:priority:work:)`): a `Task.detached` when `detached`, else a `Task {}`
  /// made on the subscribing thread, at `priority`. Disposing cancels the task; an error `work` throws
  /// fails the single.
  @_disfavoredOverload
  public static func create(
    detached: Bool = false, priority: TaskPriority? = nil, work: @escaping @Sendable () async throws -> Element
  ) -> Single {
    create { single in
      let operation: @Sendable () async -> Void = {
        do { single(.success(try await work())) } catch { single(.failure(error)) }
      }
      let task =
        detached
        ? Task.detached(priority: priority, operation: operation) : Task(priority: priority, operation: operation)
      return Disposables.create { task.cancel() }
    }
  }
}

extension Maybe {
  /// The value, or `nil` when the maybe completes empty, awaited (RxSwift 6.5's `value`); cancelling the
  /// task disposes the subscription and throws `CancellationError`.
  public var value: Element? {
    get async throws {
      try await source.firstValueOrEnd()
    }
  }
}

extension Completable {
  /// Awaits the completion (RxSwift 6.5's `value`); an error is thrown; cancelling the task disposes
  /// the subscription and throws `CancellationError`.
  public var value: Void {
    get async throws {
      _ = try await source.firstValueOrEnd()
    }
  }
}

extension Observable {
  /// The first value, or `nil` when the sequence completes first; throws its error (the traits'
  /// `value`, as RxSwift's). The subscription is made at once, also in a cancelled task, so a sequence
  /// that ends while being subscribed gives its result; cancelling the task disposes the subscription
  /// and throws `CancellationError` if nothing came by then.
  @usableFromInline func firstValueOrEnd() async throws -> Element? {
    let subscription = SingleAssignmentDisposable()
    let first = try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<RxElement<Element>?, any Error>) in
        let resumed = Atomic<Bool>(false)
        let resume: @Sendable (Result<RxElement<Element>?, any Error>) -> Void = { result in
          if !resumed.exchange(true, ordering: .acquiringAndReleasing) { continuation.resume(with: result) }
        }
        subscription.setDisposable(
          subscribe(
            onNext: { resume(.success(RxElement($0))) }, onError: { resume(.failure($0)) },
            onCompleted: { resume(.success(nil)) }, onDisposed: { resume(.failure(CancellationError())) }))
      }
    } onCancel: {
      subscription.dispose()
    }
    return first?.value
  }
}
