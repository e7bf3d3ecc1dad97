import AsyncSchedulers
import AsyncSchedulersRxBridge
import Synchronization

/// A hot or cold observable that sends recorded events at their virtual times and records its
/// subscriptions (RxTest's `TestableObservable`), made by `TestScheduler.createHotObservable(_:)` and
/// `createColdObservable(_:)`.
///
/// A hot one sends each event at its absolute time to whoever is subscribed then; a cold one sends
/// them to each subscriber, their times counted from its subscription.
///
/// As RxTest's, a hot observable is not a subject: each event goes to the observers subscribed when it
/// is sent (one subscribing while an event is delivered gets the next one), and events recorded after
/// an end still reach whoever is subscribed then.
public final class TestableObservable<Element>: ObservableType, Sendable {
  private let subscriptionLog = Mutex<[Subscription]>([])
  private let scheduler: TestScheduler
  private let isHot: Bool
  /// A hot observable's current observers, with their subscription index, in subscription order.
  private let hotObservers = Mutex<[(index: Int, observer: AnyObserver<Element>)]>([])
  /// The events this observable sends, with their times.
  public var recordedEvents: [Recorded<Event<Element>>] { recorded.value }
  /// The same, carried as the bridge carries values (they need not be `Sendable`, as in RxTest).
  private let recorded: RxElement<[Recorded<Event<Element>>]>

  init(scheduler: TestScheduler, events: [Recorded<Event<Element>>], hot: Bool) {
    self.scheduler = scheduler
    recorded = RxElement(events)
    isHot = hot
    guard hot else { return }
    for event in events {
      let time = event.time
      let event = RxElement(event.value)
      scheduler.scheduleAt(time) { [weak self] in
        guard let self else { return }
        for entry in hotObservers.withCriticalRegion({ $0 }) { entry.observer.on(event.value) }
      }
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
    if isHot {
      let observer = AnyObserver(observer)
      hotObservers.withCriticalRegion { $0.append((index, observer)) }
      inner = Disposables.create { [weak self] in
        self?.hotObservers.withCriticalRegion { $0.removeAll { $0.index == index } }
      }
    } else {
      let timers = CompositeDisposable()
      for recorded in recordedEvents {
        let event = RxElement(recorded.value)
        _ = timers.insert(
          scheduler.scheduleRelativeVirtual((), dueTime: recorded.time) { _ in
            observer.on(event.value)
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
