import AsyncSchedulers
import Synchronization

extension Signal {
  /// Delivers every event on `scheduler`, in order (`-deliverOn:`, Rx `observeOn`, ReactiveSwift
  /// `observe(on:)`).
  ///
  /// Events are queued per subscription and delivered by one job at a time on `scheduler` (a job
  /// delivers every event queued when it runs), so their order is kept on any scheduler, concurrent
  /// ones included, and a burst costs one job, not one per event. Disposing drops what is queued.
  /// Under a `TestScheduler`, events are delivered when the test drives it.
  @inlinable public func observe(on scheduler: some Scheduler) -> Signal {
    observe(onAny: scheduler)
  }

  /// ``observe(on:)`` for a scheduler known only as `any Scheduler` (the Rx bridge's cores): the
  /// delivery queue is specialized for the events either way, the scheduler is called once per drain.
  @inlinable package func observe(onAny scheduler: any Scheduler) -> Signal {
    Signal { observer in
      let queue = DeliveryQueue(observer: observer, scheduler: scheduler)
      return subscribe { event in queue.enqueue(event) }
    }
  }

  /// Subscribes on `scheduler`: the subscribe closure runs there, and so does the disposal of the
  /// upstream subscription (`-subscribeOn:`, Rx `subscribeOn`). Events are delivered wherever the
  /// producer sends them.
  ///
  /// Disposing before the subscription job has run means the producer is never subscribed.
  /// Memory: none beyond the subscription job.
  @inlinable public func subscribe(on scheduler: some Scheduler) -> Signal {
    Signal { observer in
      let upstream = SerialDisposable()
      let job = scheduler.schedule { upstream.inner = self.subscribe(observer.send) }
      return AnyDisposable {
        job.dispose()
        scheduler.execute { upstream.dispose() }
      }
    }
  }
}

/// The events of one `observe(on:)` subscription waiting for their delivery job: a ``DrainQueue`` whose
/// drainer is a job on the scheduler. The native operator's jobs deliver in batches; the Rx bridge's
/// `observe(on:)` on an Rx scheduler with no core of its own (RxTest's) schedules one job per event,
/// as RxSwift's does.
@usableFromInline package final class DeliveryQueue<Element: Sendable, Failure: Error>: Sendable {
  /// How delivery jobs are started, and what each delivers.
  @usableFromInline package enum Jobs: Sendable {
    /// Jobs on a core scheduler; each delivers every event queued when it runs, and what comes
    /// meanwhile.
    case batches(on: any Scheduler)
    /// Jobs started by the closure (on an Rx scheduler); each delivers the oldest event, then starts the
    /// next job if more are queued.
    case onePerEvent(start: @Sendable (@escaping @Sendable () -> Void) -> Void)
  }

  @usableFromInline let observer: SignalObserver<Element, Failure>
  @usableFromInline let jobs: Jobs
  @usableFromInline let events = Mutex(DrainQueue<SignalEvent<Element, Failure>>())

  @inlinable package init(observer: SignalObserver<Element, Failure>, jobs: Jobs) {
    self.observer = observer
    self.jobs = jobs
  }

  @inlinable convenience init(observer: SignalObserver<Element, Failure>, scheduler: any Scheduler) {
    self.init(observer: observer, jobs: .batches(on: scheduler))
  }

  /// Queues `event`; starts a delivery job unless one is started or running.
  @inlinable package func enqueue(_ event: SignalEvent<Element, Failure>) {
    if events.withCriticalRegion({ $0.post(event) }) { startJob() }
  }

  @inlinable func startJob() {
    switch jobs {
    case .batches(let scheduler): scheduler.execute { self.deliver() }
    case .onePerEvent(let start): start { self.deliverOne() }
    }
  }

  /// Delivers what is queued, then what arrived meanwhile, until the queue is empty; only then may a
  /// new delivery job be scheduled, so deliveries never overlap, even on a concurrent scheduler.
  @inlinable func deliver() {
    var batch: [SignalEvent<Element, Failure>] = []
    while events.withCriticalRegion({ $0.takeAll(into: &batch) }) {
      // One batch send: the end of one event's delivery and the next send share a critical region.
      guard observer.sendAll(batch) else { return }
    }
  }

  /// Delivers the oldest queued event, then starts the next job if more are queued, else ends the
  /// drain (the next event starts a new one). Once the subscription has ended, no job is started.
  @inlinable func deliverOne() {
    guard let event = events.withCriticalRegion({ $0.next() }), observer.sendReportingOpen(event) else { return }
    let more = events.withCriticalRegion { queue -> Bool in
      guard queue.isEmpty else { return true }
      _ = queue.next()  // Ends the drain.
      return false
    }
    if more { startJob() }
  }
}
