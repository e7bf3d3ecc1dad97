import AsyncSchedulers
import AsyncSignals
import Foundation

/// ReactiveObjC's `RACSignal`, with its Swift spellings, on a native ``/AsyncSignals/Signal``.
///
/// A cold signal: `createSignal`'s block runs once per subscription, on the subscribing thread.
/// Values are optional and errors `Error?`, as RAC's are nullable. Subscribers get events one at a
/// time, never after `completed` or an error, never after their disposable is disposed; the disposable
/// returned by the `subscribe…` methods disposes the subscription and what the `createSignal` block
/// returned, exactly once. Convert with ``native`` and ``init(_:)``.
public class RACSignal<Value: Sendable>: @unchecked Sendable {
  // Why @unchecked Sendable: the class is open to RAC's subject subclasses; its only stored property
  // is a `let` of a Sendable type.

  /// The native signal underneath (errors `nil` arrive as a private placeholder error).
  public let native: Signal<Value?, any Error>

  /// Wraps a native signal.
  public init(_ native: Signal<Value?, any Error>) { self.native = native }

  /// A signal whose `didSubscribe` block runs for each subscriber (`+createSignal:`).
  public class func createSignal(
    _ didSubscribe: @escaping @Sendable (any RACSubscriber) -> RACDisposable?
  ) -> RACSignal<Value> {
    RACSignal(
      Signal { observer in
        let subscriber = RACObserverSubscriber<Value>(observer)
        if let disposable = didSubscribe(subscriber) { subscriber.disposable.add(disposable) }
        return subscriber.disposable
      })
  }

  /// A signal that sends `value` and completes (`+return:`).
  public class func `return`(_ value: Value?) -> RACSignal<Value> { RACSignal(.just(value)) }

  /// A signal that completes at once (`+empty`).
  public class func empty() -> RACSignal<Value> { RACSignal(.empty()) }

  /// A signal that sends `error` at once (`+error:`).
  public class func error(_ error: (any Error)?) -> RACSignal<Value> { RACSignal(.fail(error ?? RACNilError())) }

  /// A signal that never sends anything (`+never`).
  public class func never() -> RACSignal<Value> { RACSignal(.never()) }

  // MARK: Subscribing

  /// Subscribes with a handler per kind of event; each handler runs on the thread the signal sends from.
  func subscribe(
    next: (@Sendable (Value?) -> Void)?, error: (@Sendable ((any Error)?) -> Void)?, completed: (@Sendable () -> Void)?
  ) -> RACDisposable {
    let subscription = native.subscribe { event in
      switch event {
      case .next(let value): next?(value)
      case .failed(let failure): error?(failure is RACNilError ? nil : failure)
      case .finished: completed?()
      }
    }
    return RACDisposable(subscription)
  }

  /// Subscribes to values (`-subscribeNext:`).
  @discardableResult
  public func subscribeNext(_ next: @escaping @Sendable (Value?) -> Void) -> RACDisposable {
    subscribe(next: next, error: nil, completed: nil)
  }

  /// Subscribes to values and completion (`-subscribeNext:completed:`).
  @discardableResult
  public func subscribeNext(
    _ next: @escaping @Sendable (Value?) -> Void, completed: @escaping @Sendable () -> Void
  ) -> RACDisposable {
    subscribe(next: next, error: nil, completed: completed)
  }

  /// Subscribes to values and errors (`-subscribeNext:error:`).
  @discardableResult
  public func subscribeNext(
    _ next: @escaping @Sendable (Value?) -> Void, error: @escaping @Sendable ((any Error)?) -> Void
  ) -> RACDisposable {
    subscribe(next: next, error: error, completed: nil)
  }

  /// Subscribes to every event (`-subscribeNext:error:completed:`).
  @discardableResult
  public func subscribeNext(
    _ next: @escaping @Sendable (Value?) -> Void, error: @escaping @Sendable ((any Error)?) -> Void,
    completed: @escaping @Sendable () -> Void
  ) -> RACDisposable {
    subscribe(next: next, error: error, completed: completed)
  }

  /// Subscribes to errors (`-subscribeError:`).
  @discardableResult
  public func subscribeError(_ error: @escaping @Sendable ((any Error)?) -> Void) -> RACDisposable {
    subscribe(next: nil, error: error, completed: nil)
  }

  /// Subscribes to completion (`-subscribeCompleted:`).
  @discardableResult
  public func subscribeCompleted(_ completed: @escaping @Sendable () -> Void) -> RACDisposable {
    subscribe(next: nil, error: nil, completed: completed)
  }

  /// Subscribes `subscriber` (`-subscribe:`): it receives every event, and the subscription's
  /// disposable through `didSubscribe(with:)`.
  @discardableResult
  public func subscribe(_ subscriber: any RACSubscriber) -> RACDisposable {
    let compound = RACCompoundDisposable()
    subscriber.didSubscribe(with: compound)
    let disposable = subscribe(
      next: { subscriber.sendNext($0) }, error: { subscriber.sendError($0) }, completed: { subscriber.sendCompleted() })
    compound.add(disposable)
    return compound
  }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// The error domain of the errors RAC's signal operators send (`RACSignalErrorDomain`).
public let RACSignalErrorDomain = "RACSignalErrorDomain"
// swift-format-ignore: AlwaysUseLowerCamelCase
/// The code of the error `timeout(_:on:)` sends (`RACSignalErrorTimedOut`).
public let RACSignalErrorTimedOut = 1
