import AsyncSchedulers
import AsyncSignals
import Synchronization

/// One `buffer(timeSpan:count:scheduler:)` or `window(timeSpan:count:scheduler:)` subscription: its
/// ``TimedWindowsStateMachine`` under a lock, the window timers on the core scheduler, and the sending
/// of what the machine posted, in order, with no lock held.
///
/// `Output` is what the subscriber receives: `[Element]` for `buffer`, `Observable<Element>` for
/// `window`. A window given to the subscriber keeps the upstream subscribed while something subscribes
/// to it, even after the outer subscription is disposed (RxSwift's reference counting): `retainUpstream`
/// gives each window subscription its reference.
final class TimedWindows<Element: Sendable, Output>: Disposable {
  private let state: Mutex<TimedWindowsStateMachine<Element>>
  /// The timer of the latest window a timer was started for, with that window's number.
  private let timer = Mutex<(window: UInt64, action: ScheduledAction?)>((0, nil))
  private let core: any Scheduler
  private let span: Duration
  private let observer: SignalObserver<RxElement<Output>, any Error>
  private let wrap: @Sendable (TimedWindowsStateMachine<Element>.Delivery) -> Output?

  /// A subscription collecting `count` values or `span` of time per window; `wrap` turns a batch or a
  /// new window into what the subscriber receives (`nil` for deliveries it does not receive).
  init(
    collecting: Bool, core: any Scheduler, span: Duration, count: Int,
    observer: SignalObserver<RxElement<Output>, any Error>,
    wrap: @escaping @Sendable (TimedWindowsStateMachine<Element>.Delivery) -> Output?
  ) {
    state = Mutex(TimedWindowsStateMachine(collects: collecting, count: count))
    self.core = core
    self.span = span
    self.observer = observer
    self.wrap = wrap
  }

  /// Opens the first window (sent at once by `window`) and starts its timer.
  func start() {
    perform(state.withCriticalRegion { $0.start() })
    startTimer()
  }

  /// Handles an upstream event.
  func receive(_ event: SignalEvent<Element, any Error>) {
    switch event {
    case .next(let value):
      perform(state.withCriticalRegion { $0.receive(value) })
    case .failed(let error):
      stopTimer()
      if state.withCriticalRegion({ $0.end(failing: error) }) { sendPosted() }
    case .finished:
      stopTimer()
      if state.withCriticalRegion({ $0.end(failing: nil) }) { sendPosted() }
    }
  }

  var isDisposed: Bool { state.withCriticalRegion { $0.ended } }

  /// Stops deciding and cancels the window timer; windows already given out stay open.
  func dispose() {
    state.withCriticalRegion { $0.dispose() }
    stopTimer()
  }

  private func perform(_ action: TimedWindowsStateMachine<Element>.Action) {
    if action.send { sendPosted() }
    if action.startTimer { startTimer() }
  }

  /// Starts the timer of the window open now, replacing the previous window's. Two threads can start
  /// timers at once (the timer's thread and the upstream's, each having closed a window): the timer of
  /// the later window stays, whichever thread gets here last.
  private func startTimer() {
    let window = state.withCriticalRegion { $0.window }
    let next = core.schedule(after: span, leeway: .zero) { [self] in
      perform(state.withCriticalRegion { $0.timerFired(for: window) })
    }
    let stale = timer.withCriticalRegion { timer -> ScheduledAction? in
      guard timer.action == nil || window >= timer.window else { return next }
      defer { timer = (window, next) }
      return timer.action
    }
    stale?.dispose()
    if isDisposed { stopTimer() }
  }

  private func stopTimer() {
    timer.withCriticalRegion { timer -> ScheduledAction? in
      defer { timer.action = nil }
      return timer.action
    }?.dispose()
  }

  /// Sends what the machine posted, in order, until none is left (a decision made meanwhile by another
  /// thread posts and leaves the sending to this thread).
  private func sendPosted() {
    while let delivery = state.withCriticalRegion({ $0.nextDelivery() }) {
      switch delivery {
      case .batch, .open:
        if let output = wrap(delivery) { observer.send(output) }
      case .value(let value, let subject):
        subject.onNext(value)
      case .close(let subject):
        subject.onCompleted()
      case .fail(let error, let subject):
        subject?.onError(error)
        observer.fail(error)
      case .finish(let subject):
        subject?.onCompleted()
        observer.finish()
      }
    }
  }
}
