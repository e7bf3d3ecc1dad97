import AsyncSchedulers
import AsyncSignals
import Foundation
import Synchronization

/// One `delay` subscription: takes ``RxDelayStateMachine``'s action under its lock and performs it after
/// releasing it (sends to the observer, schedules drains on the Rx scheduler).
final class RxDelay<Element: Sendable>: Disposable {
  private let state = Mutex(RxDelayStateMachine<Element>())
  private let observer: SignalObserver<Element, any Error>
  private let scheduler: any SchedulerType
  private let dueTime: Duration
  /// The scheduler's time: its core's clock for a bridge scheduler (virtual on a test scheduler's core),
  /// else its `now`.
  private let clock: @Sendable () -> Duration
  /// The drain scheduled next (one at a time).
  private let drain = SerialDisposable()

  init(observer: SignalObserver<Element, any Error>, dueTime: Duration, scheduler: any SchedulerType) {
    self.observer = observer
    self.dueTime = dueTime
    self.scheduler = scheduler
    if let backed = scheduler as? any CoreBackedScheduler {
      let core = backed._nativeTarget
      clock = { core.now.offset }
    } else {
      clock = { .seconds(scheduler.now.timeIntervalSince1970) }
    }
  }

  /// An upstream event, on the thread that sends it.
  func on(_ event: Event<Element>) {
    let now = clock()
    switch state.withCriticalRegion({ $0.received(event, at: now) }) {
    case .none: return
    case .scheduleDrain: schedule(after: dueTime)
    case .sendFailure(let error):
      observer.fail(error)
      dispose()
    }
  }

  var isDisposed: Bool { state.withCriticalRegion { $0.ended } && drain.isDisposed }

  func dispose() {
    state.withCriticalRegion { $0.dispose() }
    drain.dispose()
  }

  private func schedule(after delay: Duration) {
    drain.disposable = scheduler.scheduleRelative((), dueTime: .roundedUp(delay)) { [self] _ in
      run()
      return Disposables.create()
    }
  }

  /// A drain, on the scheduler: sends one event, then an error that came meanwhile, or schedules the
  /// next event's drain for the time it has left.
  private func run() {
    var action = state.withCriticalRegion { $0.drainStarted() }
    while true {
      switch action {
      case .stop: return
      case .sendFailure(let error):
        observer.fail(error)
        dispose()
        return
      case .send(.next(let value)):
        observer.send(value)
        action = state.withCriticalRegion { $0.sent() }
      case .send(.completed):
        observer.finish()
        dispose()
        return
      case .send(.error(let error)):
        observer.fail(error)
        dispose()
        return
      case .scheduleDrain(let arrival):
        schedule(after: dueTime - (clock() - arrival))
        return
      }
    }
  }
}
