import AsyncSchedulers
import AsyncSignals
import Synchronization

/// `observe(on:)` for an Rx scheduler that runs on no core scheduler: events are posted from any
/// thread and drained, in order, by one action at a time scheduled on the Rx scheduler (a ``DrainQueue``
/// whose drainer is that action).
@usableFromInline final class RxOutbox<Element: Sendable>: Sendable {
  private let events = Mutex(DrainQueue<SignalEvent<Element, any Error>>())
  private let observer: SignalObserver<Element, any Error>
  private let scheduler: any ImmediateSchedulerType

  @usableFromInline init(observer: SignalObserver<Element, any Error>, scheduler: any ImmediateSchedulerType) {
    self.observer = observer
    self.scheduler = scheduler
  }

  /// Queues `event`; schedules its delivery unless a delivery is scheduled or running.
  @usableFromInline func post(_ event: SignalEvent<Element, any Error>) {
    if events.withCriticalRegion({ $0.post(event) }) { _ = scheduler.schedule(self) { $0.deliverNext() } }
  }

  /// Delivers the oldest queued event (with no lock held), then schedules the next delivery if more are
  /// queued: one event per scheduled action, as RxSwift's `observe(on:)` delivers on a scheduler that
  /// is not serial (on RxTest's scheduler each event comes one tick after the one before).
  private func deliverNext() -> any Disposable {
    guard let event = events.withCriticalRegion({ $0.next() }) else { return Disposables.create() }
    observer.send(event)
    let more = events.withCriticalRegion { queue -> Bool in
      guard queue.isEmpty else { return true }
      _ = queue.next()  // Ends the delivery: the next post schedules a new one.
      return false
    }
    if more { _ = scheduler.schedule(self) { $0.deliverNext() } }
    return Disposables.create()
  }
}
