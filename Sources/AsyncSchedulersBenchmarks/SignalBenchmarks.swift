import AsyncSchedulers
import AsyncSignals
import Dispatch
import Foundation

/// Scenario 8: signals. 8: `Int`s sent by a signal from one serial scheduler, delivered with
/// `observe(on:)` to another, consumed by `for await` in a task that prefers it, against one
/// `DispatchQueue.async` per element. 8b: a callback subscription through map → filter → observe(on:),
/// against the same chain written with `DispatchQueue.async`. 8c: 100,000 live subscriptions (memory
/// per subscription, against a stored closure per subscriber) and what stays after disposing them.
func signalThroughput(_ options: RunOptions) -> [Figure] {
  let count = options.size(1_000_000, quick: 20_000)
  let source = SerialScheduler(name: "bench.signal.source")
  let target = SerialScheduler(name: "bench.signal.target")
  let queue = DispatchQueue(label: "bench.signal.baseline")
  let targetQueue = DispatchQueue(label: "bench.signal.baseline.target")
  let numbers = Signal<Int, Never> { observer in
    source.execute {
      for value in 0..<count { observer.send(value) }
      observer.finish()
    }
    return nil
  }
  let iterate = compare(
    scenario: "8 signal observe(on:) + for await", operations: count, options: options, target: .ratio(1.0),
    ours: {
      time {
        let sum = blocking {
          await Task(executorPreference: target) {
            var sum = 0
            for await value in numbers.observe(on: target) { sum &+= value }
            return sum
          }.value
        }
        precondition(sum == count * (count - 1) / 2, "scenario 8 lost values")
      }
    },
    baseline: { drainTime(count) { queue.async(execute: $0) } })

  let chain = compare(
    scenario: "8b callback map → filter → observe(on:)", operations: count, options: options, target: .ratio(0.5),
    ours: {
      let done = DispatchSemaphore(value: 0)
      return time {
        let subscription = numbers.map { $0 &* 2 }.filter { $0 % 3 != 0 }.observe(on: target)
          .subscribe(next: { _ in }, finished: { done.signal() })
        done.wait()
        subscription.dispose()
      }
    },
    baseline: {
      let done = DispatchSemaphore(value: 0)
      // The same chain by hand: produced on one queue, mapped and filtered there, each value posted to
      // a second queue (the signal's source and target schedulers).
      return time {
        queue.async {
          for value in 0..<count {
            let mapped = value &* 2
            if mapped % 3 != 0 { targetQueue.async {} }
          }
          targetQueue.async { done.signal() }
        }
        done.wait()
      }
    })
  return [iterate, chain] + subscriptionMemory(options)
}

/// 8c, in a fresh child process (so the heap holds nothing from other scenarios): resident memory per
/// live subscription, against one stored closure per subscriber; and what a second round of as many
/// subscriptions adds after the first was disposed (nothing, if disposal gives everything back).
private func subscriptionMemory(_ options: RunOptions) -> [Figure] {
  let count = options.size(100_000, quick: 10_000)
  let ours = runChild(["--child-subscriptions", "ours", "\(count)"]) ?? [.nan, .nan]
  let baseline = runChild(["--child-subscriptions", "closures", "\(count)"]) ?? [.nan, .nan]
  return [
    Figure(
      scenario: "8c memory per live subscription", ours: ours[0], baseline: baseline[0], unit: "bytes",
      target: .absolute(1024)),
    Figure(
      scenario: "8c growth after disposing them all", ours: max(0, ours[1]), baseline: max(0, baseline[1]),
      unit: "bytes/sub", target: .absolute(8)),
  ]
}

/// The child side of 8c: creates `count` subscriptions (or stored closures), measures resident memory,
/// disposes them, creates as many again, and prints the memory per live subscription and the growth of
/// the second round.
func runSubscriptionsChild(kind: String, count: Int) {
  let subject = SignalSubject<Int, Never>()
  func round() -> [AnyObject] {
    var keep: [AnyObject] = []
    keep.reserveCapacity(count)
    for index in 0..<count {
      if kind == "ours" {
        let subscription = subject.signal.map { $0 + index }.subscribe(next: { _ in })
        keep.append(AnyDisposable { subscription.dispose() })
      } else {
        let box = ResultBox<Int>()
        keep.append(AnyDisposable { box.value = index })
      }
    }
    return keep
  }
  let before = procStatusKilobytes("VmRSS")
  var live = round()
  let afterFirst = procStatusKilobytes("VmRSS")
  for object in live { (object as? AnyDisposable)?.dispose() }
  live = []
  live = round()
  let afterSecond = procStatusKilobytes("VmRSS")
  for object in live { (object as? AnyDisposable)?.dispose() }
  print("RESULT \((afterFirst - before) * 1024 / Double(count)) \((afterSecond - afterFirst) * 1024 / Double(count))")
}
