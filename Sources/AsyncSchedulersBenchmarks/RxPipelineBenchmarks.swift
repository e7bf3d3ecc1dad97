import AsyncSchedulersRxBridge
import Dispatch
import Foundation
import Synchronization

// Scenario 13: RxSwift's usual pipelines, side by side. Each pipeline is written with RxSwift's API
// only, so this file compiles unchanged against RxSwift 6 with its first import swapped
// (`.ci/rxswift-side-by-side` does that, to measure RxSwift on the same machine against the same
// baselines); each is measured against the same work written by hand on Dispatch (or, where an
// Rx pipeline has no Dispatch counterpart, a hand-written hot source: a locked list of closures).

/// A hand-written hot source: a locked list of subscribers' closures, called in turn.
private final class HandHotSource: Sendable {
  let observers = Mutex<[@Sendable (Int) -> Void]>([])
  func subscribe(_ observer: @escaping @Sendable (Int) -> Void) {
    observers.withLock { $0.append(observer) }
  }
  func send(_ value: Int) {
    for observer in observers.withLock({ $0 }) { observer(value) }
  }
}

/// Scenario 13's rows (with `BENCH_ROWS=be`, only rows 13b and 13e).
func rxPipelines(_ options: RunOptions) -> [Figure] {
  let count = options.size(1_000_000, quick: 20_000)
  let rows = ProcessInfo.processInfo.environment["BENCH_ROWS"] ?? "abcdef"
  var figures: [Figure] = []

  if rows.contains("a") {
    // 13a: a subject's values through map and filter to one subscriber, per event; by hand, the hot
    // source with the map and filter inline.
    figures.append(
      compare(
        scenario: "13a subject.map.filter.subscribe, per event", operations: count, options: options,
        target: .info,
        ours: {
          let subject = PublishSubject<Int>()
          let sink = BenchSink()
          let subscription = subject.map { $0 &* 3 }.filter { $0 & 1 == 0 }.subscribe(onNext: { sink.sum &+= $0 })
          defer { subscription.dispose() }
          return time { for value in 0..<count { subject.onNext(value) } }
        },
        baseline: {
          let source = HandHotSource()
          let sink = BenchSink()
          source.subscribe { value in
            let mapped = value &* 3
            if mapped & 1 == 0 { sink.sum &+= mapped }
          }
          return time { for value in 0..<count { source.send(value) } }
        }))
  }

  if rows.contains("b") {
    // 13b: `range` → `map` → `observe(on:)` a serial queue scheduler, to completion; by hand, each mapped
    // value handed to a serial queue.
    figures.append(
      compare(
        scenario: "13b range.map.observe(on:), per value", operations: count, options: options,
        target: .ratio(2.0),
        ours: {
          let scheduler = SerialDispatchQueueScheduler(qos: .default)
          let sink = BenchSink()
          let done = DispatchSemaphore(value: 0)
          return time {
            let subscription = Observable.range(start: 0, count: count)
              .map { $0 &* 3 }
              .observe(on: scheduler)
              .subscribe(onNext: { sink.sum &+= $0 }, onCompleted: { done.signal() })
            done.wait()
            subscription.dispose()
          }
        },
        baseline: {
          let queue = DispatchQueue(label: "bench.rx.range.baseline")
          let sink = BenchSink()
          let done = DispatchSemaphore(value: 0)
          return time {
            for value in 0..<count {
              let mapped = value &* 3
              queue.async { sink.sum &+= mapped }
            }
            queue.async { done.signal() }
            done.wait()
          }
        }))
  }

  if rows.contains("c") {
    // 13c: `interval` subscribed and disposed before its first tick, over and over (a screen's timer
    // coming and going); by hand, a `DispatchSourceTimer` made, resumed and cancelled.
    let churn = options.size(20_000, quick: 1_000)
    figures.append(
      compare(
        scenario: "13c interval subscribe + dispose", operations: churn, options: options, target: .ratio(2.0),
        ours: {
          let scheduler = SerialDispatchQueueScheduler(qos: .default)
          return time {
            for _ in 0..<churn {
              Observable<Int>.interval(.seconds(60), scheduler: scheduler).subscribe(onNext: { _ in }).dispose()
            }
          }
        },
        baseline: {
          let queue = DispatchQueue(label: "bench.rx.interval.baseline")
          return time {
            for _ in 0..<churn {
              let timer = DispatchSource.makeTimerSource(queue: queue)
              timer.schedule(deadline: .now() + 60, repeating: 60)
              timer.setEventHandler {}
              timer.resume()
              timer.cancel()
            }
          }
        }))
  }

  if rows.contains("d") {
    // 13d: 10,000 one-shot `timer`s due within 50 ms, until the last has fired; by hand, `asyncAfter`.
    let timers = options.size(10_000, quick: 1_000)
    func oneShots(ours: Bool) -> Duration {
      let scheduler = SerialDispatchQueueScheduler(qos: .default)
      let queue = DispatchQueue(label: "bench.rx.timers.baseline")
      let fired = Atomic<Int>(0)
      let done = DispatchSemaphore(value: 0)
      var subscriptions: [any Disposable] = []
      subscriptions.reserveCapacity(ours ? timers : 0)
      let elapsed = time {
        for index in 0..<timers {
          let milliseconds = index % 50
          if ours {
            subscriptions.append(
              Observable<Int>.timer(.milliseconds(milliseconds), scheduler: scheduler).subscribe(onNext: { _ in
                if fired.add(1, ordering: .relaxed).newValue == timers { done.signal() }
              }))
          } else {
            queue.asyncAfter(deadline: .now() + .milliseconds(milliseconds)) {
              if fired.add(1, ordering: .relaxed).newValue == timers { done.signal() }
            }
          }
        }
        done.wait()
      }
      for subscription in subscriptions { subscription.dispose() }
      return elapsed
    }
    figures.append(
      compare(
        scenario: "13d 10,000 one-shot timers, until the last fired", operations: timers, options: options,
        target: .ratio(2.0), ours: { oneShots(ours: true) }, baseline: { oneShots(ours: false) }))
    figures.append(
      compare(
        scenario: "13d … CPU time (user + system)", operations: timers, options: options, target: .info,
        ours: { cpuTime { _ = oneShots(ours: true) } },
        baseline: { cpuTime { _ = oneShots(ours: false) } }))
  }

  if rows.contains("e") {
    // 13e: `flatMapLatest` switching to a synchronous inner observable for every value, per event; by
    // hand, the hot source calling the subscriber with the inner's value.
    figures.append(
      compare(
        scenario: "13e subject.flatMapLatest { just }, per event", operations: count, options: options,
        target: .info,
        ours: {
          let subject = PublishSubject<Int>()
          let sink = BenchSink()
          let subscription = subject.flatMapLatest { Observable.just($0 &+ 1) }.subscribe(onNext: { sink.sum &+= $0 })
          defer { subscription.dispose() }
          return time { for value in 0..<count { subject.onNext(value) } }
        },
        baseline: {
          let source = HandHotSource()
          let sink = BenchSink()
          source.subscribe { sink.sum &+= $0 &+ 1 }
          return time { for value in 0..<count { source.send(value) } }
        }))
  }

  if rows.contains("f") {
    // 13f: heap bytes per live `subject.map.filter.subscribe`, over 10,000 of them; by hand, a closure
    // in a locked list.
    let subscriptions = options.size(10_000, quick: 1_000)
    func heapBytesPerSubscription(ours: Bool) -> Double {
      func reading() -> Double { heapBytesInUse() ?? procStatusKilobytes("VmRSS") * 1024 }
      let before = reading()
      var live: [any Disposable] = []
      live.reserveCapacity(subscriptions)
      let subject = PublishSubject<Int>()
      let source = HandHotSource()
      for _ in 0..<subscriptions {
        if ours {
          live.append(subject.map { $0 + 1 }.filter { $0 > 0 }.subscribe(onNext: { _ in }))
        } else {
          source.subscribe { value in _ = value + 1 > 0 }
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
    figures.append(
      figure("13f heap per live subject.map.filter.subscribe", unit: "B", target: .info, ours: ours, baseline: baseline)
    )
  }
  return figures
}
