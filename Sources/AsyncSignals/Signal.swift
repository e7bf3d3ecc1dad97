import AsyncSchedulers

/// What runs with the observer at a subscription's source before the producer starts (see
/// `Signal.subscribe(linkedTo:_:)`).
@usableFromInline typealias SignalStartHook = @Sendable (any SignalObserverHandle) -> Void

/// A cold signal: each subscription runs the signal's subscribe closure anew, and receives
/// `next* (finished | failed)?` (ReactiveObjC's `RACSignal`, ReactiveSwift's `SignalProducer`, an
/// RxSwift `Observable` created with `create`).
///
/// Use it three ways:
/// - **Iterate**: a signal is an `AsyncSequence`; `for try await value in signal` subscribes, and
///   leaving the loop or cancelling the task disposes the subscription (a `Never`-failing signal is
///   iterated without `try`). Values wait in an unbounded buffer while the loop body runs; choose
///   another policy with ``values(buffering:)``.
/// - **Subscribe** with handlers: ``subscribe(_:)``, ``subscribe(next:failed:finished:)``.
/// - **Compose** with operators, including the scheduler-aware ones (`observe(on:)`, `delay`,
///   `throttle`, `debounce`, …) which take any `Scheduler`, so they run on virtual time under a
///   `TestScheduler` unchanged.
///
/// ```swift
/// let numbers = Signal<Int, Never> { observer in
///   observer.send(1)
///   observer.send(2)
///   observer.finish()
///   return nil
/// }
/// for await number in numbers { print(number) }
/// ```
public struct Signal<Element: Sendable, Failure: Error>: Sendable {
  /// How a subscription starts: the producer's subscribe closure with a new observer, or, for a signal
  /// made by a stateless operator (`map`, `filter`, `compactMap`, `setFailureType`), the upstream's
  /// subscription with the handler adapted (one observer for the whole fused chain).
  @usableFromInline enum Source: Sendable {
    case producer(@Sendable (SignalObserver<Element, Failure>) -> (any Disposable)?)
    case fused(
      @Sendable (@escaping @Sendable (SignalEvent<Element, Failure>) -> Void, SignalStartHook?) ->
        any SignalObserverHandle
    )
    /// ``just(_:)``: one value, then finished, sent as each subscription starts. Kept apart so that
    /// operators which subscribe to an inner signal per value (`switchToLatest`, `flatMap`) can take the
    /// value without making a subscription.
    case just(Element)
  }

  @usableFromInline let source: Source

  /// Creates a signal from a subscribe closure (`+[RACSignal createSignal:]`).
  ///
  /// `subscribe` runs once per subscription, synchronously on the subscribing thread; it sends events
  /// to the observer (now, or later from any thread) and returns what to dispose when the subscription
  /// ends (a timer, a task, an inner subscription), or `nil`. That disposable is disposed exactly once,
  /// after the terminal event was delivered or when the subscriber disposes, whichever comes first.
  @inlinable public init(_ subscribe: @escaping @Sendable (SignalObserver<Element, Failure>) -> (any Disposable)?) {
    source = .producer(subscribe)
  }

  /// A signal that sends `value` and finishes as each subscription starts.
  @inlinable init(just value: Element) { source = .just(value) }

  /// The value of a signal made by ``just(_:)``, which an operator may take without subscribing.
  @inlinable var justValue: Element? {
    if case .just(let value) = source { return value }
    return nil
  }

  /// A signal whose subscriptions are the upstream's, with each handler adapted by `subscribe`.
  @inlinable init(
    fused subscribe:
      @escaping @Sendable (@escaping @Sendable (SignalEvent<Element, Failure>) -> Void, SignalStartHook?) ->
      any SignalObserverHandle
  ) {
    source = .fused(subscribe)
  }

  /// Subscribes `handler` to every event; returns the handle that ends the subscription.
  ///
  /// `handler` runs on the thread the producer sends from, one event at a time, never after the
  /// terminal event or after the subscription is disposed; it may dispose the subscription itself.
  @inlinable @discardableResult
  public func subscribe(_ handler: @escaping @Sendable (SignalEvent<Element, Failure>) -> Void) -> SignalSubscription<
    Element, Failure
  > {
    SignalSubscription(observer: observe(handler))
  }

  /// Starts a subscription delivering to `handler`; returns the observer at its source. `beforeStart`
  /// gets that observer before the producer's subscribe closure runs.
  @inlinable func observe(
    _ handler: @escaping @Sendable (SignalEvent<Element, Failure>) -> Void, beforeStart: SignalStartHook? = nil
  ) -> any SignalObserverHandle {
    switch source {
    case .producer(let onSubscribe):
      let observer = SignalObserver(handler)
      beforeStart?(observer)
      if let resources = onSubscribe(observer) { observer.attach(resources) }
      return observer
    case .fused(let subscribe):
      return subscribe(handler, beforeStart)
    case .just(let value):
      let observer = SignalObserver(handler)
      beforeStart?(observer)
      observer.send(value)
      observer.finish()
      return observer
    }
  }

  /// Subscribes `handler` on behalf of `downstream`, an operator's observer: the upstream subscription
  /// becomes `downstream`'s resource *before* the upstream starts, so an operator that ends while the
  /// upstream is still sending synchronously from its subscribe closure (`take(2)` of an endless
  /// synchronous source) disposes it at once, and the source's `isTerminated` stops its loop.
  @inlinable package func subscribe<DownElement: Sendable, DownFailure: Error>(
    linkedTo downstream: SignalObserver<DownElement, DownFailure>,
    _ handler: @escaping @Sendable (SignalEvent<Element, Failure>) -> Void
  ) -> SignalSubscription<Element, Failure> {
    SignalSubscription(
      observer: observe(handler, beforeStart: { downstream.attach(SignalSubscription<Element, Failure>(observer: $0)) })
    )
  }

  /// A signal made by a stateless operator: each subscription is one subscription of this signal, whose
  /// handler `adapt` makes from the downstream handler (it runs inside this signal's delivery, one event
  /// at a time, never after the end).
  @inlinable func fuse<NewElement: Sendable, NewFailure: Error>(
    _ adapt:
      @escaping @Sendable (@escaping @Sendable (SignalEvent<NewElement, NewFailure>) -> Void) ->
      @Sendable (
        SignalEvent<Element, Failure>
      ) -> Void
  ) -> Signal<NewElement, NewFailure> {
    let upstream = self
    return Signal<NewElement, NewFailure>(fused: { handler, beforeStart in
      upstream.observe(adapt(handler), beforeStart: beforeStart)
    })
  }

  /// Subscribes with a handler per kind of event; see ``subscribe(_:)``.
  @inlinable @discardableResult
  public func subscribe(
    next: @escaping @Sendable (Element) -> Void = { _ in },
    failed: @escaping @Sendable (Failure) -> Void = { _ in },
    finished: @escaping @Sendable () -> Void = {}
  ) -> SignalSubscription<Element, Failure> {
    subscribe { event in
      switch event {
      case .next(let value): next(value)
      case .failed(let error): failed(error)
      case .finished: finished()
      }
    }
  }
}

extension Signal where Failure == Never {
  /// Subscribes with handlers for values and the end; see ``subscribe(_:)``.
  @inlinable @discardableResult
  public func subscribe(
    next: @escaping @Sendable (Element) -> Void, finished: @escaping @Sendable () -> Void = {}
  ) -> SignalSubscription<Element, Failure> {
    subscribe { event in
      switch event {
      case .next(let value): next(value)
      case .finished: finished()
      }
    }
  }
}
