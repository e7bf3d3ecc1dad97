import AsyncSchedulers
import AsyncSchedulersTestSupport
import AsyncSchedulersTesting
import AsyncSignals
import Synchronization

extension SchedulerInstant {
  /// Whole milliseconds since the origin, for short timelines.
  var ms: Int64 { offset.components.seconds * 1000 + offset.components.attoseconds / 1_000_000_000_000_000 }
}

/// Records a subscription's events as `value@ms`, `|@ms` (finished) and `#error@ms` (failed), with the
/// virtual time of each.
final class Timeline<Element: Sendable, Failure: Error>: Sendable {
  private let scheduler: any Scheduler
  private let log = Log<String>()
  private let subscription = Mutex<SignalSubscription<Element, Failure>?>(nil)

  init(_ signal: Signal<Element, Failure>, on scheduler: any Scheduler) {
    self.scheduler = scheduler
    let log = self.log
    let subscription = signal.subscribe { event in
      let at = scheduler.now.ms
      let entry =
        switch event {
        case .next(let value): "\(value)@\(at)"
        case .finished: "|@\(at)"
        case .failed(let error): "#\(error)@\(at)"
        }
      log.append(entry)
    }
    self.subscription.withCriticalRegion { $0 = subscription }
  }

  var events: [String] { log.values }

  func dispose() { subscription.withCriticalRegion { $0 }?.dispose() }
}

/// A signal that sends `events` at their virtual times (milliseconds after the subscription) on
/// `scheduler`, as a marble diagram's input line does.
func timed<Element: Sendable, Failure: Error>(
  _ events: [(Int64, SignalEvent<Element, Failure>)], on scheduler: some Scheduler
) -> Signal<Element, Failure> {
  Signal { observer in
    let jobs = CompositeDisposable()
    for (at, event) in events {
      jobs.add(scheduler.schedule(after: .milliseconds(at)) { observer.send(event) })
    }
    return jobs
  }
}
