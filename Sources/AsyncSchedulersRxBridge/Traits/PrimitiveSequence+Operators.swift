/// The trait operators RxSwift gives `Single`, `Maybe` and `Completable` beyond the shared ones (see
/// ``PrimitiveSequenceType``): each is the `Observable` operator on the trait's sequence, with the
/// trait the result has in RxSwift. Closures run on the thread that delivers the event.
extension Maybe {
  /// Subscribes with one closure for the way the maybe ends (RxSwift's `subscribe(_:)`): its value, its
  /// error, or empty.
  public func subscribe(_ observer: @escaping (MaybeEvent<Element>) -> Void) -> any Disposable {
    let observer = rxClosure(observer)
    return subscribe(
      onSuccess: { observer(.success($0)) }, onError: { observer(.error($0)) }, onCompleted: { observer(.completed) })
  }

  /// The maybe's value if it passes `predicate`, else empty.
  public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe {
    return Maybe(source: source.filter(predicate))
  }

  /// The maybe's value transformed, empty when `transform` returns `nil`.
  public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<
    Result
  > {
    return Maybe<Result>(source: source.compactMap(transform))
  }

  /// The maybe `selector` makes from the value.
  public func flatMap<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<
    Result
  > {
    let selector = rxClosure(selector)
    return Maybe<Result>(source: source.flatMap { try selector($0).asObservable() })
  }

  /// A single: the maybe's value, or `element` when it completes empty.
  public func ifEmpty(default element: Element) -> Single<Element> { Single(source: source.ifEmpty(default: element)) }

  /// The maybe's value, or `other`'s when it completes empty.
  public func ifEmpty(switchTo other: Maybe<Element>) -> Maybe<Element> {
    Maybe(source: source.ifEmpty(switchTo: other.asObservable()))
  }

  /// A single: the maybe's value, or `other`'s when it completes empty.
  public func ifEmpty(switchTo other: Single<Element>) -> Single<Element> {
    Single(source: source.ifEmpty(switchTo: other.asObservable()))
  }

  /// The maybe, with an error replaced by `element`.
  public func catchAndReturn(_ element: Element) -> Maybe { Maybe(source: source.catchAndReturn(element)) }

  /// A completable that ends as the maybe does, its value ignored.
  public func asCompletable() -> Completable { Completable(source: source.ignoreElements()) }

  /// Runs the closures as the maybe's events pass (`Observable.do`).
  public func `do`(
    onNext: ((Element) throws -> Void)? = nil, afterNext: ((Element) throws -> Void)? = nil,
    onError: ((any Swift.Error) throws -> Void)? = nil,
    afterError: ((any Swift.Error) throws -> Void)? = nil,
    onCompleted: (() throws -> Void)? = nil, afterCompleted: (() throws -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil
  ) -> Maybe {
    return Maybe(
      source: source.do(
        onNext: onNext, afterNext: afterNext, onError: onError, afterError: afterError, onCompleted: onCompleted,
        afterCompleted: afterCompleted, onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
  }
}

extension Single {
  /// A maybe: the single's value if it passes `predicate`, else empty.
  public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
    return Maybe(source: source.filter(predicate))
  }

  /// A maybe: the single's value transformed, empty when `transform` returns `nil`.
  public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<
    Result
  > {
    return Maybe<Result>(source: source.compactMap(transform))
  }

  /// The maybe `selector` makes from the value.
  public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>)
    -> Maybe<Result>
  {
    let selector = rxClosure(selector)
    return Maybe<Result>(source: source.flatMap { try selector($0).asObservable() })
  }

  /// The completable `selector` makes from the value.
  public func flatMapCompletable(_ selector: @escaping (Element) throws -> Completable) -> Completable {
    let selector = rxClosure(selector)
    return Completable(source: source.flatMap { try selector($0).asObservable() })
  }

  /// A completable that ends as the single does, its value ignored.
  public func asCompletable() -> Completable { Completable(source: source.ignoreElements()) }

  /// Runs the closures as the single's events pass (`Observable.do`).
  public func `do`(
    onSuccess: ((Element) throws -> Void)? = nil, afterSuccess: ((Element) throws -> Void)? = nil,
    onError: ((any Swift.Error) throws -> Void)? = nil,
    afterError: ((any Swift.Error) throws -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil
  ) -> Single {
    return Single(
      source: source.do(
        onNext: onSuccess, afterNext: afterSuccess, onError: onError, afterError: afterError,
        onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
  }
}

extension Single {
  /// A single sending `element` on `scheduler` (`Observable.just(_:scheduler:)`).
  public static func just(_ element: Element, scheduler: some ImmediateSchedulerType) -> Single {
    Single(source: Observable.just(element, scheduler: scheduler))
  }
}

extension Maybe {
  /// A maybe sending `element` on `scheduler` (`Observable.just(_:scheduler:)`).
  public static func just(_ element: Element, scheduler: some ImmediateSchedulerType) -> Maybe {
    Maybe(source: Observable.just(element, scheduler: scheduler))
  }
}

extension Single where Element: RxAbstractInteger {
  /// A single sending `0` after `dueTime` on `scheduler` (`Observable.timer`).
  public static func timer(_ dueTime: RxTimeInterval, scheduler: some SchedulerType) -> Single {
    Single(source: Observable.timer(dueTime, scheduler: scheduler))
  }
}

extension Maybe where Element: RxAbstractInteger {
  /// A maybe sending `0` after `dueTime` on `scheduler` (`Observable.timer`).
  public static func timer(_ dueTime: RxTimeInterval, scheduler: some SchedulerType) -> Maybe {
    Maybe(source: Observable.timer(dueTime, scheduler: scheduler))
  }
}

extension Completable {
  /// Subscribes with one closure for the way the completable ends (RxSwift's `subscribe(_:)`).
  public func subscribe(_ observer: @escaping (CompletableEvent) -> Void) -> any Disposable {
    let observer = rxClosure(observer)
    return subscribe(onCompleted: { observer(.completed) }, onError: { observer(.error($0)) })
  }

  /// Runs this one, then sends `next`'s value or end (RxSwift's `andThen(_:)` of a `Maybe`).
  public func andThen<Element>(_ next: Maybe<Element>) -> Maybe<Element> {
    Maybe(source: Observable(source.signal.then(next.asObservable().signal)))
  }

  /// Runs `second` after this one completes (RxSwift's `concat(_:)`; the same as ``andThen(_:)-(Completable)``).
  public func concat(_ second: Completable) -> Completable { andThen(second) }

  /// Runs the closures as the completable's events pass (`Observable.do`).
  public func `do`(
    onError: ((any Swift.Error) throws -> Void)? = nil,
    afterError: ((any Swift.Error) throws -> Void)? = nil,
    onCompleted: (() throws -> Void)? = nil, afterCompleted: (() throws -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil, onSubscribed: (() -> Void)? = nil,
    onDispose: (() -> Void)? = nil
  ) -> Completable {
    return Completable(
      source: source.do(
        onError: onError, afterError: afterError, onCompleted: onCompleted, afterCompleted: afterCompleted,
        onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
  }
}
