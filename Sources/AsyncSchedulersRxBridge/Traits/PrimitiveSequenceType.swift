/// What `Single`, `Maybe` and `Completable` share (RxSwift's `PrimitiveSequenceType`): the operators
/// that keep the trait, each the `Observable` operator of the same name applied to the trait's
/// sequence, so they behave as it does (where the closures run, cancellation, errors).
public protocol PrimitiveSequenceType: ObservableConvertibleType {
  /// The trait over `source`, which must keep the trait's shape (the operators below only delay,
  /// move, retry or replace it).
  static func _wrap(_ source: Observable<Element>) -> Self
}

extension Single: PrimitiveSequenceType {
  /// The single over `source` (see ``PrimitiveSequenceType``).
  public static func _wrap(_ source: Observable<Element>) -> Single { Single(source: source) }
}

extension Maybe: PrimitiveSequenceType {
  /// The maybe over `source` (see ``PrimitiveSequenceType``).
  public static func _wrap(_ source: Observable<Element>) -> Maybe { Maybe(source: source) }
}

extension Completable: PrimitiveSequenceType {
  /// The completable over `source` (see ``PrimitiveSequenceType``).
  public static func _wrap(_ source: Observable<Never>) -> Completable { Completable(source: source) }
}

extension PrimitiveSequenceType {
  /// Delays the value and the end by `dueTime` on `scheduler` (`Observable.delay`).
  public func delay(_ dueTime: RxTimeInterval, scheduler: some SchedulerType) -> Self {
    ._wrap(asObservable().delay(dueTime, scheduler: scheduler))
  }

  /// Subscribes `dueTime` later, on `scheduler` (`Observable.delaySubscription`).
  public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: some SchedulerType) -> Self {
    ._wrap(asObservable().delaySubscription(dueTime, scheduler: scheduler))
  }

  /// Delivers the events on `scheduler` (`Observable.observe(on:)`).
  public func observe(on scheduler: some ImmediateSchedulerType) -> Self {
    ._wrap(asObservable().observe(on: scheduler))
  }

  /// Subscribes on `scheduler` (`Observable.subscribe(on:)`).
  public func subscribe(on scheduler: some ImmediateSchedulerType) -> Self {
    ._wrap(asObservable().subscribe(on: scheduler))
  }

  /// Replaces an error with the trait `handler` returns (`Observable.catch`).
  public func `catch`(_ handler: @escaping (any Swift.Error) throws -> Self) -> Self {
    let handler = rxClosure(handler)
    return ._wrap(asObservable().catch { try handler($0).asObservable() })
  }

  /// Subscribes again after every error (`Observable.retry()`).
  public func retry() -> Self { ._wrap(asObservable().retry()) }

  /// Subscribes again when the sequence `notificationHandler` makes from the errors sends a value
  /// (`Observable.retry(when:)`).
  public func retry<Trigger: ObservableConvertibleType>(
    when notificationHandler: @escaping (Observable<any Swift.Error>) -> Trigger
  ) -> Self {
    return ._wrap(asObservable().retry(when: notificationHandler))
  }

  /// Subscribes again after an error, at most `maxAttemptCount` times in all (`Observable.retry`).
  public func retry(_ maxAttemptCount: Int) -> Self { ._wrap(asObservable().retry(maxAttemptCount)) }

  /// Fails with ``RxError/timeout`` when it has not ended `dueTime` after the subscription
  /// (`Observable.timeout`).
  public func timeout(_ dueTime: RxTimeInterval, scheduler: some SchedulerType) -> Self {
    ._wrap(asObservable().timeout(dueTime, scheduler: scheduler))
  }

  /// Switches to `other` when it has not ended `dueTime` after the subscription (`Observable.timeout`).
  public func timeout(_ dueTime: RxTimeInterval, other: Self, scheduler: some SchedulerType) -> Self {
    ._wrap(asObservable().timeout(dueTime, other: other.asObservable(), scheduler: scheduler))
  }

  /// Prints every event, subscription and disposal (`Observable.debug`).
  public func debug(_ identifier: String? = nil, trimOutput: Bool = false) -> Self {
    ._wrap(asObservable().debug(identifier, trimOutput: trimOutput))
  }

  /// A trait whose every subscription subscribes to a new one made by `factory` (`Observable.deferred`).
  public static func deferred(_ factory: @escaping () throws -> Self) -> Self {
    let factory = rxClosure(factory)
    return ._wrap(Observable.deferred { try factory().asObservable() })
  }

  /// A trait that makes a resource per subscription and disposes it when the subscription ends
  /// (`Observable.using`).
  public static func using<Resource: Disposable>(
    _ resourceFactory: @escaping () throws -> Resource,
    primitiveSequenceFactory: @escaping (Resource) throws -> Self
  ) -> Self {
    let primitiveSequenceFactory = rxClosure(primitiveSequenceFactory)
    return ._wrap(
      Observable.using(resourceFactory, observableFactory: { try primitiveSequenceFactory($0).asObservable() }))
  }
}

extension Completable {
  /// Completes when all of `completables` have completed; fails with the first error (RxSwift's
  /// `Completable.zip`: they all run at once).
  public static func zip<Sources: Swift.Collection>(_ completables: Sources) -> Completable
  where Sources.Element == Completable {
    Completable(source: Observable.merge(completables.map(\.source)))
  }

  /// Completes when all of `completables` have completed (see ``zip(_:)-(Sources)``).
  public static func zip(_ completables: Completable...) -> Completable { zip(completables) }

  /// Runs `completables` one after another; completes after the last (RxSwift's `Completable.concat`).
  public static func concat<Sources: Swift.Sequence>(_ completables: Sources) -> Completable
  where Sources.Element == Completable {
    Completable(source: Observable.concat(completables.map(\.source)))
  }

  /// Runs `completables` one after another (see ``concat(_:)-(Sources)``).
  public static func concat(_ completables: Completable...) -> Completable { concat(completables) }
}
