import AsyncSchedulers
import AsyncSignals

/// ReactiveObjC's `RACSubscriber`: what a signal sends its events to.
///
/// Values are `Optional` because RAC's are nullable, errors are `Error?`. A `RACSubject` is a
/// subscriber too, so a signal can be subscribed to a subject with ``RACSignal/subscribe(_:)``.
public protocol RACSubscriber: AnyObject, Sendable {
  /// Sends a value (`-sendNext:`).
  func sendNext(_ value: (any Sendable)?)
  /// Ends the signal with an error (`-sendError:`).
  func sendError(_ error: (any Error)?)
  /// Ends the signal successfully (`-sendCompleted`).
  func sendCompleted()
  /// Receives the disposable of the subscription it was subscribed with (`-didSubscribeWithDisposable:`).
  func didSubscribe(with disposable: RACCompoundDisposable)
}

/// The error that carries a `nil` error through the native signal (RAC allows `sendError:nil`).
struct RACNilError: Error {}

/// The subscriber `createSignal`'s block receives: it forwards to the subscription's native observer,
/// which enforces the event grammar (serialized events, nothing after the end or after disposal).
final class RACObserverSubscriber<Value: Sendable>: RACSubscriber {
  let observer: SignalObserver<Value?, any Error>
  /// The subscription's disposables: what `createSignal`'s block returns, and what `didSubscribe` adds.
  let disposable = RACCompoundDisposable()

  init(_ observer: SignalObserver<Value?, any Error>) { self.observer = observer }

  func sendNext(_ value: (any Sendable)?) { observer.send(racValue(value, as: Value.self, in: "RACSignal")) }

  func sendError(_ error: (any Error)?) { observer.fail(error ?? RACNilError()) }

  func sendCompleted() { observer.finish() }

  func didSubscribe(with disposable: RACCompoundDisposable) { self.disposable.add(disposable) }
}

/// `value` as the signal's `Value?` (RAC's `sendNext:` takes any object).
/// - Precondition: `value` is `nil` or a `Value`; the message names both types.
func racValue<Value>(_ value: (any Sendable)?, as type: Value.Type, in owner: String) -> Value? {
  guard let value else { return nil }
  guard let typed = value as? Value else {
    preconditionFailure("\(owner)<\(Value.self)>: sendNext got a value of type \(Swift.type(of: value))")
  }
  return typed
}
