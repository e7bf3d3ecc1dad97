extension Scheduler {
  /// Ticks every `interval`, as an `AsyncSequence` of the instants the ticks were due.
  ///
  /// Ticks are anchored to `start` (default: one interval from now): tick k is due at
  /// `start + interval × k`, so lateness never accumulates. Ticks the consumer missed while busy are
  /// coalesced: `next()` then returns at once with the latest tick already due and continues on the
  /// grid. Each `next()` is one sleep on this scheduler's clock; nothing runs between calls, so
  /// dropping the sequence leaves nothing behind. The sequence ends (returns `nil`) when the consuming
  /// task is cancelled.
  /// - Precondition: `interval > .zero`, `leeway >= .zero`.
  public func ticks(
    every interval: Duration, leeway: Duration = .zero, startingAt start: SchedulerInstant? = nil
  ) -> SchedulerTicks<Self> {
    preconditionValidRepeating(interval: interval, leeway: leeway)
    return SchedulerTicks(
      scheduler: self, start: start ?? now.advanced(by: interval), interval: interval, leeway: leeway)
  }
}

/// The ticks of a scheduler's clock; see ``Scheduler/ticks(every:leeway:startingAt:)``.
public struct SchedulerTicks<S: Scheduler>: AsyncSequence, Sendable {
  /// The instant each tick was due.
  public typealias Element = SchedulerInstant
  let scheduler: S
  let start: SchedulerInstant
  let interval: Duration
  let leeway: Duration

  /// Creates an iterator; each iterator starts at tick zero.
  public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(ticks: self) }

  /// Produces one tick per `next()`; not shareable between tasks.
  public struct AsyncIterator: AsyncIteratorProtocol {
    let ticks: SchedulerTicks
    var index: Int128 = 0

    /// Waits for the next tick and returns when it was due, or `nil` once the task is cancelled.
    public mutating func next() async -> SchedulerInstant? {
      var due = RepeatGrid.point(start: ticks.start, interval: ticks.interval, index: index)
      let now = ticks.scheduler.now
      if due <= now {
        let latest = RepeatGrid.latestIndex(start: ticks.start, interval: ticks.interval, atOrBefore: now)
        index = Swift.max(index, latest)
        due = RepeatGrid.point(start: ticks.start, interval: ticks.interval, index: index)
        if Task.isCancelled { return nil }
      } else {
        do { try await ticks.scheduler.sleep(until: due, tolerance: ticks.leeway) } catch { return nil }
      }
      index += 1
      return due
    }
  }
}

@available(*, unavailable)
extension SchedulerTicks.AsyncIterator: Sendable {}
