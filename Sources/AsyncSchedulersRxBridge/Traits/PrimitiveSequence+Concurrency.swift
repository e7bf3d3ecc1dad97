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
      for try await value in source.values { return value }
      return nil
    }
  }
}

extension Completable {
  /// Awaits the completion (RxSwift 6.5's `value`); an error is thrown; cancelling the task disposes
  /// the subscription and throws `CancellationError`.
  public var value: Void {
    get async throws {
      for try await _ in source.values {}
    }
  }
}
