import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals

/// A source whose events are scheduled at virtual times, and a recorder of what an operator sends, as
/// `event@seconds` lines: the operators' timelines pinned on a `TestScheduler`.
struct OperatorTimeline {
  let scheduler = TestScheduler()
  let log = Log<String>()
  let disposals = Log<Int>()

  /// A cold signal sending `events` at their times (seconds), counting disposals of its subscriptions.
  func source(_ events: [(Double, SignalEvent<Int, TestError>)]) -> Signal<Int, TestError> {
    Signal { observer in
      let timers = CompositeDisposable()
      for (seconds, event) in events {
        timers.add(scheduler.schedule(after: .milliseconds(Int64(seconds * 1000))) { observer.send(event) })
      }
      return AnyDisposable {
        disposals.append(1)
        timers.dispose()
      }
    }
  }

  /// Subscribes to `signal`, runs the timeline, and returns what it sent.
  @discardableResult
  func run<Element: Sendable, Failure: Error>(_ signal: Signal<Element, Failure>) -> [String] {
    let subscription = signal.subscribe { (event: SignalEvent<Element, Failure>) in
      log.append("\(event)@\(scheduler.now.seconds)")
    }
    scheduler.advance(by: .seconds(100))
    subscription.dispose()
    return log.values
  }
}

extension SchedulerInstant {
  /// Seconds since zero, for timelines.
  var seconds: String {
    let (whole, attoseconds) = offset.components
    return attoseconds == 0 ? "\(whole)" : "\(Double(whole) + Double(attoseconds) / 1e18)"
  }
}
