import AsyncSchedulers
import AsyncSignals

/// How a `Completable` ends (RxSwift's `CompletableEvent`).
public enum CompletableEvent {
  /// It ended with an error.
  case error(any Swift.Error)
  /// It completed.
  case completed
}

/// A sequence of no values that completes or fails (RxSwift's `Completable` trait).
public struct Completable: ObservableConvertibleType, Sendable {
  /// The closure `create` hands its work to send the end.
  public typealias CompletableObserver = @Sendable (CompletableEvent) -> Void

  @usableFromInline let source: Observable<Never>

  @inlinable init(source: Observable<Never>) { self.source = source }

  /// A completable whose every subscription runs `subscribe`: the first event it sends ends it.
  @inlinable public static func create(subscribe: @escaping (@escaping CompletableObserver) -> any Disposable)
    -> Completable
  {
    let subscribe = rxClosure(subscribe)
    return Completable(
      source: .create { observer in
        subscribe { event in
          switch event {
          case .error(let error): observer.onError(error)
          case .completed: observer.onCompleted()
          }
        }
      })
  }

  /// A completable that completes at once.
  @inlinable public static func empty() -> Completable { Completable(source: .empty()) }

  /// A completable failing with `error`.
  @inlinable public static func error(_ error: any Swift.Error) -> Completable { Completable(source: .error(error)) }

  /// A completable that never ends.
  @inlinable public static func never() -> Completable { Completable(source: .never()) }

  /// The completable as an `Observable` of no values.
  @inlinable public func asObservable() -> Observable<Never> { source }

  /// Subscribes with a closure per way it can end; `onDisposed` runs once when the subscription ends.
  @inlinable public func subscribe(
    onCompleted: (() -> Void)? = nil, onError: ((any Swift.Error) -> Void)? = nil,
    onDisposed: (() -> Void)? = nil
  ) -> any Disposable {
    return source.subscribe(onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Runs `next` after this one completes.
  @inlinable public func andThen(_ next: Completable) -> Completable { Completable(source: source.concat(next.source)) }

  /// Runs this one, then sends `next`'s value.
  @inlinable public func andThen<Element>(_ next: Single<Element>) -> Single<Element> {
    Single(source: Observable(source.signal.then(next.source.signal)))
  }

  /// Runs this one, then sends `next`'s values.
  @inlinable public func andThen<Element>(_ next: Observable<Element>) -> Observable<Element> {
    Observable(source.signal.then(next.signal))
  }
}

extension ObservableType where Element == Never {
  /// This sequence's end as a `Completable` (a sequence of no values, as RxSwift: other sequences go
  /// through `ignoreElements()` first, which also lets `createColdObservable([.completed(20)])` infer
  /// its element).
  @inlinable public func asCompletable() -> Completable { Completable(source: asObservable()) }
}
