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
  public func combineLatest<Other: Sendable>(_ other: Signal<Other, Failure>) -> Signal<(Element, Other), Failure> {
    Signal<(Element, Other), Failure> { observer in
      let box = OutboxMachine(CombineLatestStateMachine<Element, Other, Failure>())
      @Sendable func perform(_ send: Bool) { if send { box.state.sendPosted(to: observer.send) } }
      return subscribePair(other) { event in perform(box.state.withCriticalRegion { $0.handle(event) }) }
    }
  }

  /// Sends pairs of both signals' values of the same index: the first of each, then the second of
  /// each, … (Rx `zip`, RAC `-zipWith:`, Combine `zip`).
  ///
  /// Finishes once no more pairs can be made (a finished signal has no value waiting); a failure of
  /// either fails it and disposes both. Pairs are sent in the order they were formed, one at a time.
  /// Memory: the values of the faster signal that wait for the slower one's, unbounded. For
  /// `AsyncSequence`s, swift-async-algorithms' `zip` does the same on `values`.
  public func zip<Other: Sendable>(_ other: Signal<Other, Failure>) -> Signal<(Element, Other), Failure> {
    Signal<(Element, Other), Failure> { observer in
      let box = OutboxMachine(ZipStateMachine<Element, Other, Failure>())
      @Sendable func perform(_ action: ZipStateMachine<Element, Other, Failure>.Action) {
        withExtendedLifetime(action.dropped) {}
        if action.send { box.state.sendPosted(to: observer.send) }
      }
      return subscribePair(other) { event in perform(box.state.withCriticalRegion { $0.handle(event) }) }
    }
  }

  /// Subscribes to this signal and `other`, routing both one's events to `route` (on the thread that
  /// sent each event); disposing the result disposes both subscriptions.
  private func subscribePair<Other: Sendable>(
    _ other: Signal<Other, Failure>, _ route: @escaping @Sendable (PairEvent<Element, Other, Failure>) -> Void
  ) -> CompositeDisposable {
    let first = subscribe { event in
      switch event {
      case .next(let value): route(.first(value))
      case .finished: route(.finished(first: true))
      case .failed(let error): route(.failed(error))
      }
    }
    let second = other.subscribe { event in
      switch event {
      case .next(let value): route(.second(value))
      case .finished: route(.finished(first: false))
      case .failed(let error): route(.failed(error))
      }
    }
    return CompositeDisposable([first, second])
  }
}

/// An event of either source of a two-source operator (`combineLatest`, `zip`).
enum PairEvent<A: Sendable, B: Sendable, Failure: Error>: Sendable {
  case first(A)
  case second(B)
  case finished(first: Bool)
  case failed(Failure)
}
