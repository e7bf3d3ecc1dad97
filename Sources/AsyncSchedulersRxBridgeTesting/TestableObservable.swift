import AsyncSchedulers
import AsyncSchedulersRxBridge
import Synchronization

/// A hot or cold observable that sends recorded events at their virtual times and records its
/// subscriptions (RxTest's `TestableObservable`), made by `TestScheduler.createHotObservable(_:)` and
/// `createColdObservable(_:)`.
///
/// A hot one sends each event at its absolute time to whoever is subscribed then; a cold one sends
/// them to each subscriber, their times counted from its subscription.
public final class TestableObservable<Element: Sendable>: ObservableType, Sendable {
  private let subscriptionLog = Mutex<[Subscription]>([])
  private let scheduler: TestScheduler
  private let hot: PublishSubject<Element>?
  /// The events this observable sends, with their times.
  public let recordedEvents: [Recorded<Event<Element>>]

  init(scheduler: TestScheduler, events: [Recorded<Event<Element>>], hot: Bool) {
    self.scheduler = scheduler
    recordedEvents = events
    if hot {
      let subject = PublishSubject<Element>()
      self.hot = subject
      for recorded in events {
        scheduler.scheduleAt(recorded.time) { subject.on(recorded.value) }
      }
    } else {
      self.hot = nil
    }
  }

  /// When each subscription started and ended, in ticks.
  public var subscriptions: [Subscription] { subscriptionLog.withCriticalRegion { $0 } }

  /// Subscribes `observer`, recording the subscription; disposing records its end.
  public func subscribe<Observer: ObserverType>(_ observer: Observer) -> any Disposable
  where Observer.Element == Element {
    let index = subscriptionLog.withCriticalRegion { log in
      log.append(Subscription(scheduler.clock))
      return log.count - 1
    }
    let inner: any Disposable
    if let hot {
      inner = hot.subscribe(observer)
    } else {
      let timers = CompositeDisposable()
      for recorded in recordedEvents {
        _ = timers.insert(
          scheduler.scheduleRelativeVirtual((), dueTime: recorded.time) { _ in
            observer.on(recorded.value)
            return Disposables.create()
          })
      }
      inner = timers
    }
    return Disposables.create {
      inner.dispose()
      self.subscriptionLog.withCriticalRegion { log in
        let started = log[index].subscribe
        if log[index].unsubscribe == Int.max { log[index] = Subscription(started, self.scheduler.clock) }
      }
    }
  }
}
