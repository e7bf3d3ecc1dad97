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

  /// A signal that never sends anything, as `[RACSignal new]`, where a signal of this value type is
  /// expected (`return RACSignal()` in a function returning `RACSignal<AnyObject>`); with no such
  /// context, `RACSignal()` is the untyped signal's (see `RACSignal+Untyped.swift`).
  public convenience init() { self.init(.never()) }

  /// A signal whose `didSubscribe` block runs for each subscriber (`+createSignal:`).
  ///
  /// The block runs through RAC's subscription scheduler, as in ReactiveObjC, so it always sees
  /// ``RACScheduler/current()``: at once, on the subscribing thread, when a scheduler is current (inside
  /// a scheduler's block, on the main queue); otherwise asynchronously, on one shared background
  /// scheduler. So code that subscribes from a plain thread (a command-line tool, a test off the main
  /// actor) gets its events later, on that scheduler: subscribe from a scheduler or the main queue, or
  /// drive a `RACTestScheduler`, to get them at once.
  public class func createSignal(
    _ didSubscribe: @escaping @Sendable (any RACSubscriber) -> RACDisposable?
  ) -> RACSignal<Value> {
    RACSignal(
      Signal { observer in
        let subscriber = RACObserverSubscriber<Value>(observer)
        // Through RAC's subscription scheduler: at once where a scheduler is current (a scheduler's
        // block, the main queue), else on its background scheduler, so the block always runs with
        // `RACScheduler.current()` set.
        let scheduled = RACScheduler.subscription().schedule {
          if let disposable = didSubscribe(subscriber) { subscriber.disposable.add(disposable) }
        }
        subscriber.disposable.add(scheduled)
        return subscriber.disposable
      })
  }

  /// A signal that sends `value` and completes (`+return:`), through RAC's subscription scheduler as
  /// ``createSignal(_:)``.
  public class func `return`(_ value: Value?) -> RACSignal<Value> {
    createSignal { subscriber in
      subscriber.sendNext(value)
      subscriber.sendCompleted()
      return nil
    }
  }

  /// A signal that completes (`+empty`), through RAC's subscription scheduler as ``createSignal(_:)``.
  public class func empty() -> RACSignal<Value> {
    createSignal { subscriber in
      subscriber.sendCompleted()
      return nil
    }
  }

  /// A signal that sends `error` (`+error:`), through RAC's subscription scheduler as
  /// ``createSignal(_:)``.
  public class func error(_ error: (any Error)?) -> RACSignal<Value> {
    createSignal { subscriber in
      subscriber.sendError(error)
      return nil
    }
  }

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
