import AsyncSchedulers
import AsyncSchedulersRxBridge
import Dispatch
import Foundation
import Synchronization

/// The sum a pipeline's subscriber computes, read after the pipeline completed.
private final class Sink: @unchecked Sendable {
  // Why @unchecked Sendable: `sum` is written only by the one serial queue delivering, and read after
  // the completion's semaphore, which orders the accesses.
  var sum = 0
}

/// Scenario 11b: RxSwift's Observable on the bridge. 1e6 Ints through
/// `Observable.from(…).map.filter.observe(on: SerialDispatchQueueScheduler).subscribe`, against the same
/// pipeline written by hand on Dispatch (map and filter inline, each value handed to a serial queue);
/// and the memory of a live subscription (a subject, a map, a filter and a subscriber), as heap bytes
/// in use per subscription over 10,000 of them.
func rxObservable(_ options: RunOptions) -> [Figure] {
  let count = options.size(1_000_000, quick: 20_000)
  let values = Array(0..<count)
  /// The pipeline on the bridge, to its completion.
  func runOurs() {
    let scheduler = SerialDispatchQueueScheduler(qos: .default)
    let sink = Sink()
    let done = DispatchSemaphore(value: 0)
    let subscription = Observable.from(values)
      .map { $0 &* 3 }
      .filter { $0 & 1 == 0 }
      .observe(on: scheduler)
      .subscribe(onNext: { sink.sum &+= $0 }, onCompleted: { done.signal() })
    done.wait()
    subscription.dispose()
  }
  /// The same by hand on Dispatch.
  func runBaseline() {
    let queue = DispatchQueue(label: "bench.rx.observable.baseline")
    let sink = Sink()
    let done = DispatchSemaphore(value: 0)
    for value in values {
      let mapped = value &* 3
      guard mapped & 1 == 0 else { continue }
      queue.async { sink.sum &+= mapped }
    }
    queue.async { done.signal() }
    done.wait()
  }
  /// The process CPU time (user + system, every thread) `body` takes.
  func cpuTime(_ body: () -> Void) -> Duration {
    let before = processCPUSeconds()
    body()
    return .seconds(processCPUSeconds() - before)
  }
  let pipeline = compare(
    scenario: "11b Rx Observable: from.map.filter.observe(on:)", operations: count, options: options,
    target: .ratio(1.0), ours: { time(runOurs) }, baseline: { time(runBaseline) })
  let pipelineCPU = compare(
    scenario: "11b … CPU time (user + system) per value", operations: count, options: options, target: .info,
    ours: { cpuTime(runOurs) }, baseline: { cpuTime(runBaseline) })

  // A subject's send to one subscriber, against a hand-written hot source (a locked list of closures,
  // called in turn): what a view model's `PublishRelay`/`PublishSubject` costs per event.
  let subjectSend = compare(
    scenario: "11b Rx subject: onNext to one subscriber", operations: count, options: options, target: .info,
    ours: {
      let subject = PublishSubject<Int>()
      let sink = Sink()
      let subscription = subject.subscribe(onNext: { sink.sum &+= $0 })
      defer { subscription.dispose() }
      return time { for value in values { subject.onNext(value) } }
    },
    baseline: {
      let observers = Mutex<[@Sendable (Int) -> Void]>([])
      let sink = Sink()
      observers.withLock { $0.append({ sink.sum &+= $0 }) }
      return time {
        for value in values {
          for observer in observers.withLock({ $0 }) { observer(value) }
        }
      }
    })
  // An operator with state of its own between the source and the subscriber (generic code the
  // subscriber's module specializes), against the same stage by hand.
  let distinct = compare(
    scenario: "11b Rx Observable: from.distinctUntilChanged", operations: count, options: options,
    target: .info,
    ours: {
      let sink = Sink()
      let halves = values.map { $0 / 2 }
      return time {
        _ = Observable.from(halves).distinctUntilChanged().subscribe(onNext: { sink.sum &+= $0 })
      }
    },
    baseline: {
      // By hand, thread-safe as an operator must be: the previous value behind a lock, the
      // subscriber's closure called after it.
      let sink = Sink()
      let halves = values.map { $0 / 2 }
      let last = Mutex<Int?>(nil)
      let subscriber: @Sendable (Int) -> Void = { sink.sum &+= $0 }
      return time {
        for value in halves {
          let isNew = last.withLock { last in
            defer { last = value }
            return last != value
          }
          if isNew { subscriber(value) }
        }
      }
    })

  let subscriptions = options.size(10_000, quick: 1_000)
  /// Heap bytes per live subscription (glibc's count of bytes in use; elsewhere resident memory,
  /// which undercounts when the pages are already resident).
  func heapBytesPerSubscription(ours: Bool) -> Double {
    func reading() -> Double { heapBytesInUse() ?? procStatusKilobytes("VmRSS") * 1024 }
    let before = reading()
    var live: [any Disposable] = []
    live.reserveCapacity(subscriptions)
    let subject = PublishSubject<Int>()
    let hand = Mutex<[(Int) -> Void]>([])
    for _ in 0..<subscriptions {
      if ours {
        live.append(subject.map { $0 + 1 }.filter { $0 > 0 }.subscribe(onNext: { _ in }))
      } else {
        // By hand: a closure per subscriber in a locked list, what a minimal hot source keeps.
        hand.withCriticalRegion { $0.append({ value in _ = value + 1 > 0 }) }
      }
    }
    let after = reading()
    for subscription in live { subscription.dispose() }
    return (after - before) / Double(subscriptions)
  }
  var ours: [Double] = []
  var baseline: [Double] = []
  for _ in 0..<(options.quick ? 1 : 3) {
    ours.append(heapBytesPerSubscription(ours: true))
    baseline.append(heapBytesPerSubscription(ours: false))
  }
  return [
    pipeline, pipelineCPU, subjectSend, distinct,
    figure(
      "11b Rx Observable: memory of a live subscription", unit: "B", target: .info, ours: ours, baseline: baseline),
  ]
}
