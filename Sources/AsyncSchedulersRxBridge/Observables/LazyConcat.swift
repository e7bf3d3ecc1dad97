import AsyncSchedulers
import AsyncSignals
import Synchronization

/// One subscription of a lazy `concat`: subscribes to the sequence's observables one after another, in
/// a loop rather than by recursion, so observables that complete while being subscribed (`just`) do not
/// deepen the stack, and it stops taking observables as soon as the subscription is disposed (an
/// endless sequence under `take(3)` ends).
final class LazyConcat<Element>: Sendable {
  private let iterator: LazyObservables<Element>.Iterator
  private let observer: SignalObserver<RxElement<Element>, any Error>
  private let current: SerialDisposable
  /// Whether a subscription is being made, and whether its observable completed meanwhile.
  private let subscribing = Mutex((active: false, completedMeanwhile: false))

  init(
    _ iterator: LazyObservables<Element>.Iterator, observer: SignalObserver<RxElement<Element>, any Error>,
    current: SerialDisposable
  ) {
    self.iterator = iterator
    self.observer = observer
    self.current = current
  }

  /// Subscribes to the next observables until one is still running when its subscription returns,
  /// the sequence is exhausted (the concat completes), or the subscription was disposed.
  func subscribeNext() {
    // The downstream ended (a `take` downstream completed while this loop subscribed), or disposed.
    while !observer.isTerminated && !current.isDisposed {
      guard let next = iterator.next() else { return observer.finish() }
      subscribing.withCriticalRegion { $0 = (true, false) }
      let subscription = next.signal.subscribe { [self] event in
        switch event {
        case .next(let value): observer.send(value)
        case .failed(let error): observer.fail(error)
        case .finished:
          let later = subscribing.withCriticalRegion { state -> Bool in
            guard state.active else { return true }
            state.completedMeanwhile = true
            return false
          }
          if later { subscribeNext() }
        }
      }
      current.inner = subscription
      let completedMeanwhile = subscribing.withCriticalRegion { state -> Bool in
        state.active = false
        return state.completedMeanwhile
      }
      if !completedMeanwhile { return }
    }
  }
}
