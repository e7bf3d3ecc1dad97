import AsyncSchedulers
import AsyncSignals

/// How a `Single` ends: with its one value or an error (RxSwift 6's `SingleEvent`).
public typealias SingleEvent<Element> = Result<Element, any Swift.Error>

/// A sequence of exactly one value or an error (RxSwift's `Single` trait), on an `Observable`.
public struct Single<Element>: ObservableConvertibleType, Sendable {
  /// The closure `create` hands its work to send the one event.
  public typealias SingleObserver = @Sendable (SingleEvent<Element>) -> Void

  @usableFromInline let source: Observable<Element>

  @inlinable init(source: Observable<Element>) { self.source = source }

  /// A single whose every subscription runs `subscribe`: the first event it sends ends the single,
  /// later ones are ignored. `subscribe` runs on the subscribing thread and returns what to dispose.
  @inlinable public static func create(subscribe: @escaping (@escaping SingleObserver) -> any Disposable)
    -> Single
  {
    let subscribe = rxClosure(subscribe)
    return Single(
      source: .create { observer in
        subscribe { event in
          switch event {
          case .success(let value):
            observer.onNext(value)
            observer.onCompleted()
          case .failure(let error): observer.onError(error)
          }
        }
      })
  }

  /// A single of `element`.
  @inlinable public static func just(_ element: Element) -> Single { Single(source: .just(element)) }

  /// A single failing with `error`.
  @inlinable public static func error(_ error: any Swift.Error) -> Single { Single(source: .error(error)) }

  /// A single that never ends.
  @inlinable public static func never() -> Single { Single(source: .never()) }

  /// A single made anew for each subscription by `factory`.
  @inlinable public static func deferred(_ factory: @escaping () throws -> Single) -> Single {
    let factory = rxClosure(factory)
    return Single(source: .deferred { try factory().source })
  }

  /// The single as an `Observable` of one value.
  @inlinable public func asObservable() -> Observable<Element> { source }

  /// Subscribes `observer` to the single's end, on the thread that sends it (as in RxSwift, it need not
  /// be `@Sendable`).
  @inlinable public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> any Disposable {
    let observer = rxClosure(observer)
    return source.subscribe(
      onNext: { observer(.success($0)) }, onError: { observer(.failure($0)) })
  }

  /// Subscribes with a closure for the value and one for the error; `onDisposed` runs once when the
  /// subscription ends.
  @inlinable public func subscribe(
    onSuccess: ((Element) -> Void)? = nil, onFailure: ((any Swift.Error) -> Void)? = nil,
    onDisposed: (() -> Void)? = nil
  ) -> any Disposable {
    return source.subscribe(onNext: onSuccess, onError: onFailure, onDisposed: onDisposed)
  }

  /// The single with its value transformed.
  @inlinable public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<
    Result
  > {
    return Single<Result>(source: source.map(transform))
  }

  /// The single that `selector` makes from this one's value.
  @inlinable public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>)
    -> Single<Result>
  {
    let selector = rxClosure(selector)
    return Single<Result>(source: source.flatMap { try selector($0).source })
  }

  /// On an error, the single of `element`.
  @inlinable public func catchAndReturn(_ element: Element) -> Single { Single(source: source.catchAndReturn(element)) }

  /// On an error, the single `handler` makes.
  @inlinable public func `catch`(_ handler: @escaping (any Swift.Error) throws -> Single) -> Single {
    let handler = rxClosure(handler)
    return Single(source: source.catch { try handler($0).source })
  }

  /// Delivers the end on `scheduler`.
  @inlinable public func observe(on scheduler: some ImmediateSchedulerType) -> Single {
    Single(source: source.observe(on: scheduler))
  }

  /// Subscribes on `scheduler`.
  @inlinable public func subscribe(on scheduler: some ImmediateSchedulerType) -> Single {
    Single(source: source.subscribe(on: scheduler))
  }

  /// Fails with `RxError.timeout` unless the value comes within `dueTime`.
  @inlinable public func timeout(_ dueTime: RxTimeInterval, scheduler: some SchedulerType) -> Single {
    Single(source: source.timeout(dueTime, scheduler: scheduler))
  }

  /// Sends the value `dueTime` later.
  @inlinable public func delay(_ dueTime: RxTimeInterval, scheduler: some SchedulerType) -> Single {
    Single(source: source.delay(dueTime, scheduler: scheduler))
  }

  /// Resubscribes up to `maxAttemptCount` times in all.
  @inlinable public func retry(_ maxAttemptCount: Int) -> Single { Single(source: source.retry(maxAttemptCount)) }

  /// The single as a `Maybe`.
  @inlinable public func asMaybe() -> Maybe<Element> { Maybe(source: source) }

  /// The value, awaited (RxSwift 6.5's `value`); cancelling the task disposes the subscription and
  /// throws `CancellationError`.
  public var value: Element {
    get async throws {
      guard let value = try await source.firstValueOrEnd() else { throw RxError.noElements }
      return value
    }
  }
}

extension ObservableType {
  /// This sequence as a `Single`: its one value, or `RxError.noElements` when it completes empty,
  /// `RxError.moreThanOneElement` when it sends a second value.
  public func asSingle() -> Single<Element> { Single(source: atMostOne(required: true)) }

  /// The one value at completion; `RxError.moreThanOneElement` on a second value; with `required`,
  /// `RxError.noElements` when the sequence completes empty (what `asSingle` and `asMaybe` share).
  func atMostOne(required: Bool) -> Observable<Element> {
    lift {
      let first = SubscriptionState<Element?>(nil)
      return { event, observer in
        switch event {
        case .next(let value):
          guard first.value == nil else { throw RxError.moreThanOneElement }
          first.value = value
        case .error(let error): observer.fail(error)
        case .completed:
          if let value = first.value {
            observer.send(value)
          } else if required {
            throw RxError.noElements
          }
          observer.finish()
        }
      }
    }
  }

  /// The first value, or `nil` if the sequence completes empty, as a `Single` (RxSwift 6's `first()`).
  @inlinable public func first() -> Single<Element?> {
    Single(
      source: Observable<Element?>(signal.take(1).map { RxElement(Optional($0.value)) }).concat(Observable.just(nil))
        .take(1))
  }

  /// All the values, when the sequence completes, as a `Single` (RxSwift 6's `toArray()`).
  @inlinable public func toArray() -> Single<[Element]> {
    Single(source: Observable(signal.collect().map { RxElement($0.map(\.value)) }))
  }
}
