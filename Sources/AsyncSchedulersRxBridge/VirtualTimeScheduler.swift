import AsyncSchedulers
import Foundation
import Synchronization

/// RxSwift's virtual time scheduler: work runs only when the test drives it (``start()``,
/// ``advanceTo(_:)``), in time order, first in first out among equal times; the clock only moves
/// forward.
///
/// Actions run on the driving thread, one at a time, outside the scheduler's lock (so they may schedule
/// more work). Disposing a returned disposable before its action runs means it never runs. Thread-safe,
/// unlike Rx's (which must stay on one thread). For async code on virtual time, use the core's
/// `TestScheduler` (it is an executor too); this type keeps Rx's callback API.
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType, CustomDebugStringConvertible,
  @unchecked Sendable
{
  // Why @unchecked Sendable: the class is open (Rx subclasses it); its state is behind `state`, and
  // `converter` is a Sendable `let`.

  /// The virtual instant type.
  public typealias VirtualTime = Converter.VirtualTimeUnit
  /// The virtual interval type.
  public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

  /// An action queued for a virtual time; the package's one ``Heap`` orders them by the converter's
  /// time, first in first out among equal times.
  private struct Entry: HeapEntry {
    let time: VirtualTime
    let id: UInt64
    let item: any RunnableJob
    /// The scheduler's converter (Rx's converters hold no state, so this costs nothing).
    let converter: Converter

    func precedes(_ other: Entry) -> Bool {
      switch converter.compareVirtualTime(time, other.time) {
      case .lessThan: true
      case .greaterThan: false
      case .equal: id < other.id
      }
    }
  }

  private struct State {
    var clock: VirtualTime
    var running = false
    var nextID: UInt64 = 0
    var queue = Heap<Entry>()
  }

  private let converter: Converter
  private let state: Mutex<State>

  /// A scheduler whose clock starts at `initialClock`.
  public init(initialClock: VirtualTime, converter: Converter) {
    self.converter = converter
    state = Mutex(State(clock: initialClock))
  }

  /// The current virtual time as a `Date`.
  public var now: RxTime { converter.convertFromVirtualTime(clock) }

  /// The clock and the pending items, in the order they will run (RxSwift's `debugDescription`).
  public var debugDescription: String {
    let (clock, pending) = state.withCriticalRegion { state in
      (state.clock, state.queue.entries.filter { !$0.item.isJobCancelled }.sorted { $0.precedes($1) }.map(\.time))
    }
    return "VirtualTimeScheduler at \(clock), \(pending.count) pending: \(pending.map { "\($0)" })"
  }

  /// The current virtual time.
  public var clock: VirtualTime { state.withCriticalRegion { $0.clock } }

  /// Whether the scheduler is running work (inside ``start()`` or ``advanceTo(_:)``).
  public var isEnabled: Bool { state.withCriticalRegion { $0.running } }

  /// Schedules `action(state)` at the current virtual time (after the work already due then).
  public func schedule<StateType>(
    _ state: StateType, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    scheduleAbsoluteVirtual(state, time: clock, action: action)
  }

  /// Schedules `action(state)` `dueTime` after the current virtual time (`.never`: never).
  public func scheduleRelative<StateType>(
    _ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    guard let seconds = dueTime.rxSeconds else { return Disposables.create() }
    return scheduleRelativeVirtual(state, dueTime: converter.convertToVirtualTimeInterval(seconds), action: action)
  }

  /// Schedules `action(state)` `dueTime` (in virtual units) after the current virtual time.
  public func scheduleRelativeVirtual<StateType>(
    _ state: StateType, dueTime: VirtualTimeInterval, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    scheduleAbsoluteVirtual(state, time: converter.offsetVirtualTime(clock, offset: dueTime), action: action)
  }

  /// Schedules `action(state)` at virtual time `time` (adjusted by ``adjustScheduledTime(_:)``); a
  /// time in the past runs at the current time, after the work already due.
  public func scheduleAbsoluteVirtual<StateType>(
    _ state: StateType, time: VirtualTime, action: @escaping (StateType) -> any Disposable
  ) -> any Disposable {
    let item = RxStatefulItem(state, action)
    let time = adjustScheduledTime(time)
    self.state.withCriticalRegion { state in
      state.queue.insert(Entry(time: time, id: state.nextID, item: item, converter: converter))
      state.nextID += 1
    }
    return item
  }

  /// The time work scheduled for `time` is actually queued at (Rx's hook; `time` itself by default).
  open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime { time }

  /// Runs all work, in order, moving the clock to each item's time, until none is left or ``stop()`` is
  /// called. Does nothing if already running.
  public func start() {
    guard
      state.withCriticalRegion({ state -> Bool in
        guard !state.running else { return false }
        state.running = true
        return true
      })
    else { return }
    while let item = next(dueBy: nil) { item.runJob() }
    state.withCriticalRegion { $0.running = false }
  }

  /// Stops ``start()`` or ``advanceTo(_:)`` after the action running now.
  public func stop() { state.withCriticalRegion { $0.running = false } }

  /// Runs the work due at or before `virtualTime`, in order, then sets the clock to `virtualTime`.
  /// - Precondition: not called from an action of this scheduler, and `virtualTime` is not in the past.
  public func advanceTo(_ virtualTime: VirtualTime) {
    state.withCriticalRegion { state in
      checkArgument(
        !state.running, "VirtualTimeScheduler.advanceTo: the scheduler is already running (called from its own work?)")
      checkArgument(
        converter.compareVirtualTime(virtualTime, state.clock) != .lessThan,
        "VirtualTimeScheduler.advanceTo: cannot move back in time, from \(state.clock) to \(virtualTime)")
      state.running = true
    }
    while let item = next(dueBy: virtualTime) { item.runJob() }
    state.withCriticalRegion { state in
      state.clock = virtualTime
      state.running = false
    }
  }

  /// Moves the clock forward by `virtualInterval` without running anything.
  /// - Precondition: the interval does not move the clock backwards.
  public func sleep(_ virtualInterval: VirtualTimeInterval) {
    state.withCriticalRegion { state in
      let target = converter.offsetVirtualTime(state.clock, offset: virtualInterval)
      checkArgument(
        converter.compareVirtualTime(target, state.clock) != .lessThan,
        "VirtualTimeScheduler.sleep: cannot move back in time, from \(state.clock) to \(target)")
      state.clock = target
    }
  }

  /// Pops the next live item due by `limit` (any time if `nil`) while running, moving the clock to it.
  private func next(dueBy limit: VirtualTime?) -> (any RunnableJob)? {
    state.withCriticalRegion { state -> (any RunnableJob)? in
      while state.running, let first = state.queue.first {
        if let limit, converter.compareVirtualTime(first.time, limit) == .greaterThan { return nil }
        _ = state.queue.popFirst()
        if first.item.isJobCancelled { continue }
        if converter.compareVirtualTime(first.time, state.clock) == .greaterThan { state.clock = first.time }
        return first.item
      }
      return nil
    }
  }
}

/// RxSwift's historical scheduler: virtual time in `Date`s, starting anywhere (1970 by default).
open class HistoricalScheduler: VirtualTimeScheduler<HistoricalSchedulerTimeConverter>, @unchecked Sendable {
  // Why @unchecked Sendable: adds no state to its superclass.

  /// A scheduler whose clock starts at `initialClock`.
  public init(initialClock: RxTime = Date(timeIntervalSince1970: 0)) {
    super.init(initialClock: initialClock, converter: HistoricalSchedulerTimeConverter())
  }
}
