import AsyncSchedulersRxBridge
import Synchronization

/// An observer that records every event with the virtual time it arrived at (RxTest's
/// `TestableObserver`), made by `TestScheduler.createObserver(_:)`.
public final class TestableObserver<Element>: ObserverType, Sendable {
  /// The events, each carried as the bridge carries values (they need not be `Sendable`, as in RxTest).
  private let recorded = Mutex<[RxElement<Recorded<Event<Element>>>]>([])
  private let scheduler: TestScheduler

  init(scheduler: TestScheduler) { self.scheduler = scheduler }

  /// The events received, with their times, in order.
  public var events: [Recorded<Event<Element>>] { recorded.withCriticalRegion { $0 }.map(\.value) }

  /// Records `event` at the scheduler's current tick. Runs on the delivering thread.
  public func on(_ event: Event<Element>) {
    let time = scheduler.clock
    let entry = RxElement(Recorded(time: time, value: event))
    recorded.withCriticalRegion { $0.append(entry) }
  }
}
