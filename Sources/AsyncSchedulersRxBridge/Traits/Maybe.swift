import AsyncSchedulers
import AsyncSignals

/// How a `Maybe` ends: with a value, an error, or empty (RxSwift's `MaybeEvent`).
public enum MaybeEvent<Element> {
  /// The one value.
  case success(Element)
  /// The error that ended it.
  case error(any Swift.Error)
  /// It ended with no value.
  case completed
}

/// A sequence of at most one value, or an error (RxSwift's `Maybe` trait), on an `Observable`.
public struct Maybe<Element>: ObservableConvertibleType, Sendable {
  /// The closure `create` hands its work to send the one event.
  public typealias MaybeObserver = @Sendable (MaybeEvent<Element>) -> Void

  @usableFromInline let source: Observable<Element>

  @inlinable init(source: Observable<Element>) { self.source = source }

  /// A maybe whose every subscription runs `subscribe`: the first event it sends ends it.
  @inlinable public static func create(subscribe: @escaping (@escaping MaybeObserver) -> any Disposable)
    -> Maybe
  {
    let subscribe = rxClosure(subscribe)
    return Maybe(
      source: .create { observer in
        subscribe { event in
          switch event {
          case .success(let value):
            observer.onNext(value)
            observer.onCompleted()
          case .error(let error): observer.onError(error)
          case .completed: observer.onCompleted()
          }
        }
      })
  }

  /// A maybe of `element`.
  @inlinable public static func just(_ element: Element) -> Maybe { Maybe(source: .just(element)) }

  /// A maybe that completes empty.
  @inlinable public static func empty() -> Maybe { Maybe(source: .empty()) }

  /// A maybe failing with `error`.
  @inlinable public static func error(_ error: any Swift.Error) -> Maybe { Maybe(source: .error(error)) }

  /// A maybe that never ends.
  @inlinable public static func never() -> Maybe { Maybe(source: .never()) }

  /// The maybe as an `Observable` of at most one value.
  @inlinable public func asObservable() -> Observable<Element> { source }

  /// Subscribes with a closure per way it can end; `onDisposed` runs once when the subscription ends.
  @inlinable public func subscribe(
    onSuccess: ((Element) -> Void)? = nil, onError: ((any Swift.Error) -> Void)? = nil,
    onCompleted: (() -> Void)? = nil, onDisposed: (() -> Void)? = nil
  ) -> any Disposable {
    let onSuccess = rxClosure(onSuccess)
    let onError = rxClosure(onError)
    let onCompleted = rxClosure(onCompleted)
    let completedEmpty = onCompleted
    // With no `onError`, an error goes to `Hooks.defaultErrorHandler`, as from any subscription.
    let callStack = onError == nil ? Hooks.subscriptionCallStack() : []
    return source.materialize().take(2).toArray().subscribe(
      onSuccess: { events in
        if case .next(let value) = events.first {
          onSuccess?(value)
        } else if case .error(let error) = events.first {
          if let onError { onError(error) } else { Hooks.defaultErrorHandler(callStack, error) }
        } else {
          completedEmpty?()
        }
      }, onDisposed: onDisposed)
  }

  /// The maybe with its value transformed.
  @inlinable public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Maybe<
    Result
  > {
    return Maybe<Result>(source: source.map(transform))
  }

  /// The maybe as a `Single`: `RxError.noElements` if it completes empty.
  @inlinable public func asSingle() -> Single<Element> { source.asSingle() }
}

extension ObservableType {
  /// This sequence as a `Maybe`: its one value or empty; `RxError.moreThanOneElement` on a second value.
  public func asMaybe() -> Maybe<Element> { Maybe(source: atMostOne(required: false)) }
}
