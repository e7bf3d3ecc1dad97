import AsyncSchedulersRxBridge
import Synchronization

/// An observer that records every event with the virtual time it arrived at (RxTest's
/// `TestableObserver`), made by `TestScheduler.createObserver(_:)`.
public final class TestableObserver<Element: Sendable>: ObserverType, Sendable {
  private let recorded = Mutex<[Recorded<Event<Element>>]>([])
  private let scheduler: TestScheduler

  init(scheduler: TestScheduler) { self.scheduler = scheduler }

  /// The events received, with their times, in order.
  public var events: [Recorded<Event<Element>>] { recorded.withCriticalRegion { $0 } }

  /// Records `event` at the scheduler's current tick. Runs on the delivering thread.
  public func on(_ event: Event<Element>) {
    let time = scheduler.clock
    recorded.withCriticalRegion { $0.append(Recorded(time: time, value: event)) }
  }
}
