import AsyncSignals

/// A type-erased observer (RxSwift's `AnyObserver`): what `Observable.create` hands its closure.
///
/// Sending through the observer `create` gives is thread-safe and enforces the grammar: events sent
/// after the end, or after the subscription was disposed, are dropped; events sent from several
/// threads at once reach the subscriber one at a time (see `SignalObserver`).
public struct AnyObserver<Element>: ObserverType, Sendable {
  /// The closure each event goes to. As in RxSwift, it need not be `@Sendable`: it runs on the thread
  /// that sends each event, one event of a subscription at a time (see `RxClosure`); an observer
  /// subscribed to several sequences gets their events as they come, possibly at once, as in RxSwift.
  public typealias EventHandler = (Event<Element>) -> Void

  private let handler: @Sendable (Event<Element>) -> Void

  /// An observer calling `eventHandler` for each event, on the sending thread.
  public init(eventHandler: @escaping EventHandler) { handler = rxClosure(eventHandler) }

  /// An observer calling `handler`, already `@Sendable` (the bridge's own observers: no wrapping).
  @_disfavoredOverload
  init(sendableHandler handler: @escaping @Sendable (Event<Element>) -> Void) { self.handler = handler }

  /// An observer forwarding to `observer`.
  public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
    if let same = observer as? AnyObserver<Element> {
      handler = same.handler
    } else {
      handler = rxClosure { observer.on($0) }
    }
  }

  /// Sends `event` to the handler.
  public func on(_ event: Event<Element>) { handler(event) }

  /// This observer.
  @inlinable public func asObserver() -> AnyObserver<Element> { self }
}

extension AnyObserver {
  /// The observer of one subscription of a signal.
  init(_ observer: SignalObserver<RxElement<Element>, any Error>) {
    handler = { observer.send($0.signalEvent) }
  }
}
