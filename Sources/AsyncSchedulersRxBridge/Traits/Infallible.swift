import AsyncSchedulers
import AsyncSignals

/// An event of a sequence that cannot fail (RxSwift 6's `InfallibleEvent`).
public enum InfallibleEvent<Element> {
  /// A value.
  case next(Element)
  /// The end of the sequence.
  case completed
}

extension InfallibleEvent: Sendable where Element: Sendable {}

/// A sequence that never fails (RxSwift 6's `Infallible` trait), on an `Observable`: its subscribers
/// get values and a completion, never an error.
///
/// Made from a failable sequence with `asInfallible(onErrorJustReturn:)`,
/// `asInfallible(onErrorFallbackTo:)` or `asInfallible(onErrorRecover:)`, or created directly.
public struct Infallible<Element>: ObservableConvertibleType, Sendable {
  /// The closure `create` hands its work to send events.
  public typealias InfallibleObserver = @Sendable (InfallibleEvent<Element>) -> Void

  @usableFromInline let source: Observable<Element>

  @inlinable init(source: Observable<Element>) { self.source = source }

  /// A sequence whose every subscription runs `subscribe` with a closure that sends its events;
  /// events after `.completed` are ignored. `subscribe` runs on the subscribing thread and returns
  /// what to dispose.
  @inlinable public static func create(subscribe: @escaping (@escaping InfallibleObserver) -> any Disposable)
    -> Infallible
  {
    let subscribe = rxClosure(subscribe)
    return Infallible(
      source: .create { observer in
        subscribe { event in
          switch event {
          case .next(let value): observer.onNext(value)
          case .completed: observer.onCompleted()
          }
        }
      })
  }

  /// A sequence of `element`, then the end.
  @inlinable public static func just(_ element: Element) -> Infallible { Infallible(source: .just(element)) }

  /// A sequence of `elements`, then the end.
  @inlinable public static func of(_ elements: Element...) -> Infallible { Infallible(source: .from(elements)) }

  /// A sequence of the elements of `array`, then the end.
  @inlinable public static func from(_ array: [Element]) -> Infallible { Infallible(source: .from(array)) }

  /// A sequence of the elements of `sequence` (a range, a lazy sequence: any `Sequence`), then the end.
  /// The sequence is iterated anew for each subscription, on the subscribing thread.
  @inlinable public static func from<Source: Sequence>(_ sequence: Source) -> Infallible
  where Source.Element == Element {
    Infallible(source: .from(sequence))
  }

  /// A sequence that ends at once.
  @inlinable public static func empty() -> Infallible { Infallible(source: .empty()) }

  /// A sequence that never sends anything.
  @inlinable public static func never() -> Infallible { Infallible(source: .never()) }

  /// A sequence made anew for each subscription by `factory`.
  @inlinable public static func deferred(_ factory: @escaping () -> Infallible) -> Infallible {
    let factory = rxClosure(factory)
    return Infallible(source: .deferred { factory().source })
  }

  /// The sequence as an `Observable` (which never fails).
  @inlinable public func asObservable() -> Observable<Element> { source }

  /// The sequence itself.
  @inlinable public func asInfallible() -> Infallible { self }

  /// Subscribes with a closure for each value and one for the end; `onDisposed` runs once when the
  /// subscription ends (after `onCompleted`, or on the disposing thread). The closures run on the
  /// thread that sends each event.
  @inlinable public func subscribe(
    onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil,
    onDisposed: (() -> Void)? = nil
  ) -> any Disposable {
    return source.subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Subscribes with closures that also get `object`, held weakly: events after `object` is gone are not
  /// delivered.
  @inlinable public func subscribe<Object: AnyObject>(
    with object: Object, onNext: ((Object, Element) -> Void)? = nil,
    onCompleted: ((Object) -> Void)? = nil, onDisposed: ((Object) -> Void)? = nil
  ) -> any Disposable {
    return source.subscribe(with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
  }

  /// Subscribes `observer` to every event, on the thread that sends it (as in RxSwift, it need not be
  /// `@Sendable`).
  @inlinable public func subscribe(_ observer: @escaping (InfallibleEvent<Element>) -> Void) -> any Disposable {
    let observer = rxClosure(observer)
    return source.subscribe(onNext: { observer(.next($0)) }, onCompleted: { observer(.completed) })
  }

  /// Sends each value to `onNext` (RxSwift's `bind(onNext:)`).
  @inlinable public func bind(onNext: @escaping (Element) -> Void) -> any Disposable {
    return source.bind(onNext: onNext)
  }

  /// Sends every value to each of `observers` (RxSwift's `bind(to:)`).
  @inlinable public func bind<Observer: ObserverType>(to observers: Observer...) -> any Disposable
  where Observer.Element == Element {
    source.subscribe { event in for observer in observers { observer.on(event) } }
  }

  /// Accepts every value into each of `relays` (RxRelay's `bind(to:)`); the end is not forwarded.
  @inlinable public func bind(to relays: PublishRelay<Element>...) -> any Disposable {
    source.subscribe(onNext: { value in
      for relay in relays { relay.accept(value) }
    })
  }

  /// Accepts every value into each of `relays` (RxRelay's `bind(to:)`); the end is not forwarded.
  @inlinable public func bind(to relays: BehaviorRelay<Element>...) -> any Disposable {
    source.subscribe(onNext: { value in
      for relay in relays { relay.accept(value) }
    })
  }

  /// Accepts every value into each of `relays` (RxRelay's `bind(to:)`); the end is not forwarded.
  @inlinable public func bind(to relays: ReplayRelay<Element>...) -> any Disposable {
    source.subscribe(onNext: { value in
      for relay in relays { relay.accept(value) }
    })
  }

  /// Each value transformed by `transform`.
  @inlinable public func map<Result>(_ transform: @escaping (Element) -> Result) -> Infallible<
    Result
  > {
    return Infallible<Result>(source: source.map(transform))
  }

  /// Each value `transform` maps to something, skipping `nil`.
  @inlinable public func compactMap<Result>(_ transform: @escaping (Element) -> Result?)
    -> Infallible<Result>
  {
    return Infallible<Result>(source: source.compactMap(transform))
  }

  /// The values `predicate` accepts.
  @inlinable public func filter(_ predicate: @escaping (Element) -> Bool) -> Infallible {
    return Infallible(source: source.filter(predicate))
  }

  /// Each running result of `accumulator`, starting from `seed` for each subscription.
  @inlinable public func scan<Accumulate>(
    _ seed: Accumulate, accumulator: @escaping (Accumulate, Element) -> Accumulate
  ) -> Infallible<Accumulate> {
    return Infallible<Accumulate>(source: source.scan(seed, accumulator: accumulator))
  }

  /// `elements` first, then the sequence.
  @inlinable public func startWith(_ elements: Element...) -> Infallible {
    Infallible(source: .concat([.from(elements), source]))
  }

  /// The values of the sequences `selector` makes for each value, merged.
  @inlinable public func flatMap<Result>(_ selector: @escaping (Element) -> Infallible<Result>)
    -> Infallible<Result>
  {
    return Infallible<Result>(source: source.flatMap(selector))
  }

  /// The values of the sequence `selector` makes for the latest value only.
  @inlinable public func flatMapLatest<Result>(
    _ selector: @escaping (Element) -> Infallible<Result>
  )
    -> Infallible<Result>
  {
    return Infallible<Result>(source: source.flatMapLatest(selector))
  }

  /// The first `count` values, then the end.
  @inlinable public func take(_ count: Int) -> Infallible { Infallible(source: source.take(count)) }

  /// The values after the first `count`.
  @inlinable public func skip(_ count: Int) -> Infallible { Infallible(source: source.skip(count)) }

  /// Calls the closures on each event, before passing it on (RxSwift's `do`); they run on the
  /// delivering thread.
  @inlinable public func `do`(
    onNext: ((Element) -> Void)? = nil, onCompleted: (() -> Void)? = nil,
    onSubscribe: (() -> Void)? = nil, onDispose: (() -> Void)? = nil
  ) -> Infallible {
    return Infallible(
      source: source.do(onNext: onNext, onCompleted: onCompleted, onSubscribe: onSubscribe, onDispose: onDispose))
  }

  /// The values, delivered on `scheduler` (RxSwift's `observe(on:)`).
  @inlinable public func observe(on scheduler: some ImmediateSchedulerType) -> Infallible {
    Infallible(source: source.observe(on: scheduler))
  }

  /// A value once `dueTime` has passed on `scheduler` without a newer one.
  @inlinable public func debounce(_ dueTime: RxTimeInterval, scheduler: some SchedulerType) -> Infallible {
    Infallible(source: source.debounce(dueTime, scheduler: scheduler))
  }

  /// At most one value per `dueTime` on `scheduler` (with `latest`, the latest of a window at its end).
  @inlinable public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: some SchedulerType)
    -> Infallible
  {
    Infallible(source: source.throttle(dueTime, latest: latest, scheduler: scheduler))
  }

  /// One subscription upstream shared by every subscriber, replaying the last `replay` values.
  @inlinable public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Infallible {
    Infallible(source: source.share(replay: replay, scope: scope))
  }

  /// The values of all `sources`, merged.
  @inlinable public static func merge(_ sources: Infallible...) -> Infallible {
    Infallible(source: .merge(sources.map(\.source)))
  }

  /// The latest values of `first` and `second` combined by `resultSelector`, once both have sent one.
  @inlinable public static func combineLatest<First, Second>(
    _ first: Infallible<First>, _ second: Infallible<Second>,
    resultSelector: @escaping (First, Second) -> Element
  ) -> Infallible {
    return Infallible(source: .combineLatest(first.source, second.source, resultSelector: resultSelector))
  }
}

extension Infallible where Element: RxAbstractInteger {
  /// Sends `0` after `dueTime`, then with a `period` `1`, `2`, … every period, on `scheduler`
  /// (RxSwift's `Infallible.timer`).
  @inlinable public static func timer(
    _ dueTime: RxTimeInterval, period: RxTimeInterval? = nil, scheduler: some SchedulerType
  )
    -> Infallible
  {
    Infallible(source: Observable<Element>.timer(dueTime, period: period, scheduler: scheduler))
  }

  /// Sends `0`, `1`, `2`, … every `period` on `scheduler` (RxSwift's `Infallible.interval`).
  @inlinable public static func interval(_ period: RxTimeInterval, scheduler: some SchedulerType) -> Infallible {
    Infallible(source: Observable<Element>.interval(period, scheduler: scheduler))
  }
}

extension ObservableConvertibleType {
  /// The sequence that, on an error, sends `element` and ends (RxSwift's
  /// `asInfallible(onErrorJustReturn:)`).
  @inlinable public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
    Infallible(source: asObservable().catchAndReturn(element))
  }

  /// The sequence that, on an error, goes on with `infallible` (RxSwift's
  /// `asInfallible(onErrorFallbackTo:)`).
  @inlinable public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>) -> Infallible<Element> {
    Infallible(source: asObservable().catch { _ in infallible.source })
  }

  /// The sequence that, on an error, goes on with the sequence `handler` makes from it (RxSwift's
  /// `asInfallible(onErrorRecover:)`); `handler` runs on the thread that delivers the error.
  @inlinable public func asInfallible(
    onErrorRecover handler: @escaping (any Swift.Error) -> Infallible<Element>
  )
    -> Infallible<Element>
  {
    let handler = rxClosure(handler)
    return Infallible(source: asObservable().catch { handler($0).source })
  }
}

extension Infallible {
  /// The values as an async sequence that cannot throw (RxSwift 6.5's `Infallible.values`): iterating
  /// subscribes; leaving the loop or cancelling the task disposes the subscription. Values wait in an
  /// unbounded buffer while the loop body runs, and reach the iterating task as they were sent (as in
  /// RxSwift, they need not be `Sendable`: see `RxElement`).
  public var values: AsyncStream<Element> {
    let upstream = source.signal
    return AsyncStream { continuation in
      // The continuation is used from the delivering thread, one event at a time (see `RxElement`).
      let sink = RxElement(continuation)
      let subscription = upstream.subscribe { event in
        switch event {
        case .next(let box): sink.value.yield(box.value)
        case .failed, .finished: sink.value.finish()
        }
      }
      continuation.onTermination = { _ in subscription.dispose() }
    }
  }
}
