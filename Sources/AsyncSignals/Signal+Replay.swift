import AsyncSchedulers
import Synchronization

extension Signal {
  /// Subscribes to this signal once, on the first subscription, and replays everything it sent to
  /// every subscriber, then the live events (the core of ReactiveObjC's `startLazily…` and of
  /// ReactiveSwift's `replayLazily`).
  ///
  /// The upstream subscription lives as long as the returned signal's replay state (it is not disposed
  /// when subscribers leave), as in ReactiveObjC.
  /// Memory: every value, for the returned signal's lifetime.
  public func replayLazily() -> Signal {
    let shared = LazyReplay(upstream: self)
    return Signal { observer in shared.subject.signal.subscribe(observer.send) }
  }

  /// A signal whose `block` runs once, on `scheduler`, at the first subscription; every subscriber gets
  /// all it sent (`+[RACSignal startLazilyWithScheduler:block:]`).
  /// Memory: every value, for the returned signal's lifetime.
  @inlinable public static func startLazily(
    on scheduler: some Scheduler, _ block: @escaping @Sendable (SignalObserver<Element, Failure>) -> Void
  ) -> Signal {
    Signal { observer in scheduler.schedule { block(observer) } }.replayLazily()
  }

  /// A signal whose `block` starts running now, on `scheduler`; every subscriber gets all it sent
  /// (`+[RACSignal startEagerlyWithScheduler:block:]`).
  /// Memory: every value, for the returned signal's lifetime.
  @inlinable public static func startEagerly(
    on scheduler: some Scheduler, _ block: @escaping @Sendable (SignalObserver<Element, Failure>) -> Void
  ) -> Signal {
    let signal = startLazily(on: scheduler, block)
    signal.subscribe { _ in }
    return signal
  }
}

/// The one upstream subscription of `replayLazily`, started by the first subscriber.
final class LazyReplay<Element: Sendable, Failure: Error>: Sendable {
  let upstream: Signal<Element, Failure>
  private let started = Atomic<Bool>(false)
  private let subscription = Mutex<SignalSubscription<Element, Failure>?>(nil)
  private let replay = ReplaySignalSubject<Element, Failure>()

  init(upstream: Signal<Element, Failure>) { self.upstream = upstream }

  /// The subject subscribers attach to; the first access subscribes to the upstream signal.
  var subject: ReplaySignalSubject<Element, Failure> {
    if !started.exchange(true, ordering: .acquiringAndReleasing) {
      let replay = self.replay
      let upstreamSubscription = upstream.subscribe { event in
        switch event {
        case .next(let value): replay.send(value)
        case .finished: replay.finish()
        case .failed(let error): replay.fail(error)
        }
      }
      subscription.withCriticalRegion { $0 = upstreamSubscription }
    }
    return replay
  }
}
