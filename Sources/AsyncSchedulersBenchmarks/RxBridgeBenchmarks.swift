import AsyncSchedulers
import AsyncSchedulersRxBridge
import Dispatch
import Foundation

/// An Rx scheduler implementing only immediate and relative scheduling (as a custom Rx scheduler
/// might), so `schedulePeriodic` is the protocol's emulation.
private final class RelativeOnly: SchedulerType {
  let base = SerialDispatchQueueScheduler(qos: .userInitiated)
  var now: RxTime { base.now }
  func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable { base.schedule(state, action: action) }
  func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable { base.scheduleRelative(state, dueTime: dueTime, action: action) }
}

/// Scenario 11: the Rx bridge. Rx-spelled `schedule` on `SerialDispatchQueueScheduler` against the
/// core's `schedule` of the same job; and the drift of periodic emulation over 200 ticks of 10 ms,
/// beside a `DispatchSourceTimer`.
func rxBridge(_ options: RunOptions) -> [Figure] {
  let count = options.size(1_000_000, quick: 20_000)
  let core = SerialScheduler(name: "bench.rx.core")
  let rx = SerialDispatchQueueScheduler(qos: .default)
  let overhead = compare(
    scenario: "11 Rx bridge: schedule", operations: count, options: options, target: .ratio(1.15),
    ours: {
      drainTime(count) { job in
        _ = rx.schedule(()) { _ in
          job()
          return Disposables.create()
        }
      }
    },
    baseline: { drainTime(count) { core.schedule($0) } })

  let period = 10_000_000
  let ticks = options.quick ? 20 : 200
  func measure(ours: Bool) -> Double {
    let times = Samples(capacity: ticks)
    let done = DispatchSemaphore(value: 0)
    let start = uptimeNanoseconds() + UInt64(period)
    let record: @Sendable () -> Void = {
      if times.count < ticks {
        times.values[times.count] = Double(uptimeNanoseconds())
        times.count += 1
        if times.count == ticks { done.signal() }
      }
    }
    if ours {
      let scheduler = RelativeOnly()
      let ticking = scheduler.schedulePeriodic((), startAfter: .nanoseconds(period), period: .nanoseconds(period)) {
        record()
      }
      done.wait()
      ticking.dispose()
    } else {
      let queue = DispatchQueue(label: "bench.rx.periodic.baseline")
      let source = SourceBox(DispatchSource.makeTimerSource(queue: queue)).source
      source.schedule(
        deadline: DispatchTime(uptimeNanoseconds: start), repeating: .nanoseconds(period), leeway: .nanoseconds(0))
      source.setEventHandler(handler: record)
      source.activate()
      done.wait()
      source.cancel()
    }
    // Drift: how much later than its grid point (anchored when the timer was started) the last tick came.
    return (times.values[ticks - 1] - Double(start) - Double((ticks - 1) * period)) / 1e6
  }
  var oursDrift: [Double] = []
  var baselineDrift: [Double] = []
  for _ in 0..<(options.quick ? 2 : 5) {
    oursDrift.append(measure(ours: true))
    baselineDrift.append(measure(ours: false))
  }
  return [
    overhead,
    figure(
      "11 Rx periodic emulation: drift of last tick", unit: "ms", target: .absolute(0.3), ours: oursDrift,
      baseline: baselineDrift),
  ]
}
