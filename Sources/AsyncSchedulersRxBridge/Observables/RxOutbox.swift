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

  /// Queues `event`; schedules a drain unless one is scheduled or running.
  @usableFromInline func post(_ event: SignalEvent<Element, any Error>) {
    if events.withCriticalRegion({ $0.post(event) }) { _ = scheduler.schedule(self) { $0.drain() } }
  }

  /// Delivers the queued events until none is left (taken in batches, delivered with no lock held).
  private func drain() -> any Disposable {
    var batch: [SignalEvent<Element, any Error>] = []
    while events.withCriticalRegion({ $0.takeAll(into: &batch) }) {
      for event in batch { observer.send(event) }
    }
    return Disposables.create()
  }
}
