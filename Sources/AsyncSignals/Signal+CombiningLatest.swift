import AsyncSchedulers
import Synchronization

extension Signal {
  /// Sends the pair of both signals' latest values each time either sends one, once both have (Rx
  /// `combineLatest`, RAC `-combineLatestWith:`, Combine `combineLatest`).
  ///
  /// Finishes when both have finished, or at once when one finishes without having sent a value; a
  /// failure of either fails it and disposes both. Values may come from any threads: pairs are sent in
  /// the order they were formed, one at a time, on the thread that formed them (or one already
  /// sending). Memory: the latest value of each. For `AsyncSequence`s, swift-async-algorithms'
  /// `combineLatest` does the same on `values`.
  @inlinable public func combineLatest<Other: Sendable>(_ other: Signal<Other, Failure>) -> Signal<
    (Element, Other), Failure
  > {
    combining(other) { CombineLatestStateMachine<Element, Other, Failure>() }
  }

  /// `combineLatest` with ReactiveObjC's end: only both signals finishing finishes it, also when one
  /// finished without a value (the RAC bridge's `-combineLatestWith:`).
  @inlinable package func combineLatestFinishingWithBoth<Other: Sendable>(
    _ other: Signal<Other, Failure>
  ) -> Signal<(Element, Other), Failure> {
    combining(other) { CombineLatestStateMachine<Element, Other, Failure>(finishesEarly: false) }
  }

  /// `combineLatest` with RxSwift's end: both signals finishing finishes it, and so does a value of one
  /// arriving after the other finished without a value (the Rx bridge's `combineLatest`).
  @inlinable package func combineLatestFinishingAsRx<Other: Sendable>(
    _ other: Signal<Other, Failure>
  ) -> Signal<(Element, Other), Failure> {
    combining(other) {
      CombineLatestStateMachine<Element, Other, Failure>(finishesEarly: false, finishesOnValueWithoutPartner: true)
    }
  }

  /// Sends pairs of both signals' values of the same index: the first of each, then the second of
  /// each, … (Rx `zip`, RAC `-zipWith:`, Combine `zip`).
  ///
  /// Finishes once no more pairs can be made (a finished signal has no value waiting); a failure of
  /// either fails it and disposes both. Pairs are sent in the order they were formed, one at a time.
  /// Memory: the values of the faster signal that wait for the slower one's, unbounded. For
  /// `AsyncSequence`s, swift-async-algorithms' `zip` does the same on `values`.
  @inlinable public func zip<Other: Sendable>(_ other: Signal<Other, Failure>) -> Signal<(Element, Other), Failure> {
    combining(other) { ZipStateMachine<Element, Other, Failure>() }
  }

  /// `zip` with RxSwift's end: only both signals finishing finishes it, also when one finished with no
  /// value waiting (the Rx bridge's `zip`).
  @inlinable package func zipFinishingAsRx<Other: Sendable>(_ other: Signal<Other, Failure>) -> Signal<
    (Element, Other), Failure
  > {
    combining(other) { ZipStateMachine<Element, Other, Failure>(finishesWhenBothFinish: true) }
  }

  /// A two-source operator: each subscription makes its state machine with `makeMachine`, subscribes to
  /// both signals (see ``subscribePair(_:otherFirst:_:)``), takes each event to the machine under its
  /// lock, and sends what the machine posted after the lock.
  @inlinable func combining<Other: Sendable, Output: Sendable, Machine: PairStateMachine>(
    _ other: Signal<Other, Failure>, otherFirst: Bool = false, _ makeMachine: @escaping @Sendable () -> sending Machine
  ) -> Signal<Output, Failure>
  where
    Machine.First == Element, Machine.Second == Other, Machine.Failure == Failure,
    Machine.Output == SignalEvent<Output, Failure>
  {
    Signal<Output, Failure> { observer in
      let box = OutboxStorage(makeMachine())
      return subscribePair(other, otherFirst: otherFirst) { event in
        let action = box.state.withCriticalRegion { $0.handle(event) }
        if action.send { box.state.sendPosted(to: observer.send) }
      }
    }
  }

  /// Subscribes to this signal and `other` (`other` first when `otherFirst`, so that its synchronous
  /// values are in place before this signal's), routing both one's events to `route` (on the thread that
  /// sent each event); disposing the result disposes both subscriptions.
  @inlinable func subscribePair<Other: Sendable>(
    _ other: Signal<Other, Failure>, otherFirst: Bool = false,
    _ route: @escaping @Sendable (PairEvent<Element, Other, Failure>) -> Void
  ) -> CompositeDisposable {
    let subscriptions = CompositeDisposable()
    if !otherFirst { subscriptions.add(subscribeFirst(route)) }
    subscriptions.add(
      other.subscribe { event in
        switch event {
        case .next(let value): route(.second(value))
        case .finished: route(.finished(first: false))
        case .failed(let error): route(.failed(error))
        }
      })
    if otherFirst { subscriptions.add(subscribeFirst(route)) }
    return subscriptions
  }

  @inlinable func subscribeFirst<Other: Sendable>(
    _ route: @escaping @Sendable (PairEvent<Element, Other, Failure>) -> Void
  ) -> SignalSubscription<Element, Failure> {
    subscribe { event in
      switch event {
      case .next(let value): route(.first(value))
      case .finished: route(.finished(first: true))
      case .failed(let error): route(.failed(error))
      }
    }
  }
}

/// An event of either source of a two-source operator (`combineLatest`, `zip`).
@usableFromInline enum PairEvent<A: Sendable, B: Sendable, Failure: Error>: Sendable {
  case first(A)
  case second(B)
  case finished(first: Bool)
  case failed(Failure)
}
