import AsyncSchedulers
import AsyncSignals
import Synchronization

/// `observe(on:)` for an Rx scheduler that runs on no core scheduler: events are posted from any
/// thread and drained, in order, by one action at a time scheduled on the Rx scheduler.
final class RxOutbox<Element: Sendable>: Sendable {
  private struct State {
    var events: [SignalEvent<Element, any Error>] = []
    var draining = false
  }

  private let state = Mutex(State())
  private let observer: SignalObserver<Element, any Error>
  private let scheduler: any ImmediateSchedulerType

  init(observer: SignalObserver<Element, any Error>, scheduler: any ImmediateSchedulerType) {
    self.observer = observer
    self.scheduler = scheduler
  }

  /// Queues `event`; schedules a drain unless one is scheduled or running.
  func post(_ event: SignalEvent<Element, any Error>) {
    let schedule = state.withCriticalRegion { state -> Bool in
      state.events.append(event)
      guard !state.draining else { return false }
      state.draining = true
      return true
    }
    if schedule { _ = scheduler.schedule(self) { $0.drain() } }
  }

  /// Delivers the queued events until none is left (taken in batches, delivered with no lock held).
  private func drain() -> any Disposable {
    while true {
      let batch = state.withCriticalRegion { state -> [SignalEvent<Element, any Error>] in
        if state.events.isEmpty { state.draining = false }
        defer { state.events.removeAll(keepingCapacity: true) }
        return state.events
      }
      if batch.isEmpty { return Disposables.create() }
      for event in batch { observer.send(event) }
    }
  }
}
