import AsyncSchedulers
import AsyncSchedulersRxBridge
import Dispatch
import Foundation
import Synchronization

/// Scenario 11b: RxSwift's Observable on the bridge. 1e6 Ints through
/// `Observable.from(…).map.filter.observe(on: SerialDispatchQueueScheduler).subscribe`, against the same
/// pipeline written by hand on Dispatch (map and filter inline, each value handed to a serial queue).
/// (The memory of a live subscription is row 13f.)
func rxObservable(_ options: RunOptions) -> [Figure] {
  let count = options.size(1_000_000, quick: 20_000)
  let values = Array(0..<count)
  /// The pipeline on the bridge, to its completion.
  func runOurs() {
    let scheduler = SerialDispatchQueueScheduler(qos: .default)
    let sink = BenchSink()
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
    let sink = BenchSink()
    let done = DispatchSemaphore(value: 0)
    for value in values {
      let mapped = value &* 3
      guard mapped & 1 == 0 else { continue }
      queue.async { sink.sum &+= mapped }
    }
    queue.async { done.signal() }
    done.wait()
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
      let sink = BenchSink()
      let subscription = subject.subscribe(onNext: { sink.sum &+= $0 })
      defer { subscription.dispose() }
      return time { for value in values { subject.onNext(value) } }
    },
    baseline: {
      let observers = Mutex<[@Sendable (Int) -> Void]>([])
      let sink = BenchSink()
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
      let sink = BenchSink()
      let halves = values.map { $0 / 2 }
      return time {
        _ = Observable.from(halves).distinctUntilChanged().subscribe(onNext: { sink.sum &+= $0 })
      }
    },
    baseline: {
      // By hand, thread-safe as an operator must be: the previous value behind a lock, the
      // subscriber's closure called after it.
      let sink = BenchSink()
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

  return [
    pipeline, pipelineCPU, subjectSend, distinct,
  ]
}
