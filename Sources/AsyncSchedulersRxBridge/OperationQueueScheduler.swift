import AsyncSchedulers
import Foundation

/// RxSwift's scheduler on an `OperationQueue`: each action is a `BlockOperation` with
/// ``queuePriority``, so the queue's `maxConcurrentOperationCount` limits how many run at once.
///
/// It is the one Rx scheduler not on a core scheduler: an operation queue orders work by priority and
/// dependencies, not first in first out. Disposing a returned disposable before its action starts
/// cancels the operation (it never runs).
public final class OperationQueueScheduler: ImmediateSchedulerType, @unchecked Sendable {
  // Why @unchecked Sendable: both properties are `let`s; `OperationQueue` is thread-safe.

  /// The queue actions run on.
  public let operationQueue: OperationQueue
  /// The priority of every operation this scheduler adds.
  public let queuePriority: Operation.QueuePriority

  /// A scheduler adding operations of priority `queuePriority` to `operationQueue`.
  /// - Precondition: `operationQueue.maxConcurrentOperationCount != 0` (such a queue never runs
  ///   anything: Rx would hang silently).
  public init(operationQueue: OperationQueue, queuePriority: Operation.QueuePriority = .normal) {
    checkArgument(
      operationQueue.maxConcurrentOperationCount != 0,
      "OperationQueueScheduler: the operation queue's maxConcurrentOperationCount is 0, so it would never run anything")
    self.operationQueue = operationQueue
    self.queuePriority = queuePriority
  }

  /// Adds `action(state)` to the queue as an operation.
  public func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    let item = RxStatefulItem(state, action)
    let operation = BlockOperation { item.runJob() }
    operation.queuePriority = queuePriority
    item.attach(timer: CancelOperation(operation: operation))
    operationQueue.addOperation(operation)
    return item
  }
}

/// Cancels an operation when disposed.
private struct CancelOperation: Disposable, @unchecked Sendable {
  // Why @unchecked Sendable: `Operation.cancel()` is thread-safe, and the operation is never mutated
  // otherwise through this value.
  let operation: Operation
  func dispose() { operation.cancel() }
  var isDisposed: Bool { operation.isCancelled }
}
