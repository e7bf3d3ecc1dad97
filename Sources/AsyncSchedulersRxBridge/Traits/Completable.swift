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

  let source: Observable<Never>

  /// A completable whose every subscription runs `subscribe`: the first event it sends ends it.
  public static func create(subscribe: @escaping @Sendable (@escaping CompletableObserver) -> any Disposable)
    -> Completable
  {
    Completable(
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
  public static func empty() -> Completable { Completable(source: .empty()) }

  /// A completable failing with `error`.
  public static func error(_ error: any Swift.Error) -> Completable { Completable(source: .error(error)) }

  /// A completable that never ends.
  public static func never() -> Completable { Completable(source: .never()) }

  /// The completable as an `Observable` of no values.
  public func asObservable() -> Observable<Never> { source }

  /// Subscribes with a closure per way it can end; `onDisposed` runs once when the subscription ends.
  public func subscribe(
    onCompleted: (@Sendable () -> Void)? = nil, onError: (@Sendable (any Swift.Error) -> Void)? = nil,
    onDisposed: (@Sendable () -> Void)? = nil
  ) -> any Disposable {
    source.subscribe(onError: onError, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Runs `next` after this one completes.
  public func andThen(_ next: Completable) -> Completable { Completable(source: source.concat(next.source)) }

  /// Runs this one, then sends `next`'s value.
  public func andThen<Element: Sendable>(_ next: Single<Element>) -> Single<Element> {
    Single(source: Observable(source.signal.then(next.source.signal)))
  }

  /// Runs this one, then sends `next`'s values.
  public func andThen<Element: Sendable>(_ next: Observable<Element>) -> Observable<Element> {
    Observable(source.signal.then(next.signal))
  }
}

extension ObservableType {
  /// This sequence's end as a `Completable`; its values are dropped.
  public func asCompletable() -> Completable { Completable(source: ignoreElements()) }
}
