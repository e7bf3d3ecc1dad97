import AsyncSchedulers
import Foundation
import Synchronization

/// ReactiveObjC's `RACScheduler`, with the same API and behaviour, on top of a core scheduler.
///
/// A `RACScheduler` wraps a core ``/AsyncSchedulers/Scheduler`` (``core``): blocks scheduled through it
/// and tasks or actors running on the core share one queue and one order. Convert both ways with
/// ``core`` and ``wrapping(_:)`` (or `Scheduler.racScheduler`).
///
/// Every RAC scheduler is serial: blocks run one at a time, in order. A core that may run several jobs at
/// once (a ``/AsyncSchedulers/ConcurrentScheduler``, or any scheduler that is not an
/// ``/AsyncSchedulers/ActorScheduler``) gets a serial queue in front of it: the blocks run one at a
/// time, in order, on the core's threads, and do not share a FIFO with the core's other work. Blocks run
/// on the scheduler, with ``current()`` set to it while they run; they should not block for long.
/// Returned disposables cancel a block that has not started yet; they never interrupt one that is
/// running.
///
/// Dates are wall-clock `Date`s, converted once, when the call is made, into a deadline on the
/// scheduler's monotonic clock: changing the system clock afterwards does not move the deadline (RAC's
/// `dispatch_walltime` followed the wall clock; sleeping machines and clock adjustments are the
/// difference).
open class RACScheduler: @unchecked Sendable {
  // Why @unchecked Sendable: the class is open (RAC's hierarchy subclasses it); every stored property
  // is a `let` of a Sendable type.

  /// The core scheduler this one wraps.
  public let core: any Scheduler
  /// The scheduler's name.
  public let name: String
  /// How blocks reach `core`, decided once from its kind.
  private let route: RACSchedulerRoute
  /// Whether another wrapper of the same core exists (or existed): then every block marks this wrapper
  /// as the one running it (``RACRunningWrapper``), which the single-wrapper fast path skips.
  let sharesCore = Atomic<Bool>(false)
  /// The date of the virtual timeline's zero, for a core on virtual time (`RACTestScheduler`'s, or any
  /// `TestScheduler`): the moment this wrapper was created.
  private let virtualEpoch: Date?

  /// The name RAC gives schedulers created without one.
  public static let defaultName = "org.reactivecocoa.ReactiveObjC.RACScheduler.backgroundScheduler"

  /// Wraps `core` and registers the wrapper, so that ``current()`` returns it inside `core`'s work.
  public init(core: any Scheduler, name: String? = nil) {
    self.core = core
    self.name = name ?? core.name
    // On virtual time (a test scheduler), dates are positions on the timeline measured from now.
    self.virtualEpoch = core is any VirtualTimeline ? Date() : nil
    route = RACSchedulerRoute(for: core)
    RACScheduler.register(self)
  }

  /// Makes `scheduler` the wrapper that ``current()`` returns for its core outside blocks (in tasks and
  /// actors on the core). When the core already has a live wrapper, both are marked as sharing it: their
  /// blocks then mark which wrapper runs them, so ``current()`` inside a block is its own wrapper.
  static func register(_ scheduler: RACScheduler) {
    let previous = registry.withCriticalRegion { registry -> RACScheduler? in
      let key = ObjectIdentifier(scheduler.core)
      defer { registry[key] = WeakScheduler(value: scheduler) }
      return registry[key]?.value
    }
    guard let previous, previous !== scheduler else { return }
    previous.sharesCore.store(true, ordering: .releasing)
    scheduler.sharesCore.store(true, ordering: .releasing)
  }

  deinit {
    let key = ObjectIdentifier(core)
    RACScheduler.registry.withCriticalRegion { registry in
      if registry[key]?.value == nil || registry[key]?.value === self { registry[key] = nil }
    }
  }

  /// A new serial scheduler of default priority (`+scheduler`).
  public convenience init() { self.init(priority: .default, name: nil) }

  /// A new serial scheduler of `priority` (`+schedulerWithPriority:`).
  public convenience init(priority: RACSchedulerPriority) { self.init(priority: priority, name: nil) }

  /// A new serial scheduler of `priority` named `name` (`+schedulerWithPriority:name:`).
  public convenience init(priority: RACSchedulerPriority, name: String?) {
    let name = name ?? RACScheduler.defaultName
    self.init(core: SerialScheduler(name: name, priority: priority.schedulerPriority), name: name)
  }

  // MARK: Shared schedulers

  /// The scheduler that runs blocks inline (`+immediateScheduler`); it returns `nil` disposables.
  public class func immediate() -> RACScheduler { RACImmediateScheduler.shared }

  /// The main-thread (main-actor) scheduler (`+mainThreadScheduler`): always asynchronous.
  public class func mainThread() -> RACScheduler { mainThreadScheduler }

  // swift-format-ignore: DontRepeatTypeInStaticProperties
  // (RAC's own name for it, `+mainThreadScheduler`.)
  private static let mainThreadScheduler = RACScheduler(
    core: MainActorScheduler.shared, name: "org.reactivecocoa.ReactiveObjC.RACScheduler.mainThreadScheduler")

  /// The scheduler running the current block (`+currentScheduler`): set around every block and
  /// restored afterwards; also right inside an actor method or a task running on a bridged scheduler's
  /// core; ``mainThread()`` on the main thread outside any block; `nil` elsewhere.
  ///
  /// When several wrappers of one core exist, inside a block it is the wrapper the block was scheduled
  /// through; outside blocks (a task or an actor on the core) it is the wrapper created last.
  public class func current() -> RACScheduler? {
    guard let core = Schedulers.current else { return nil }
    if let running = RACRunningWrapper.wrapper(of: core) { return running }
    if core === MainActorScheduler.shared { return mainThreadScheduler }
    return wrapping(core)
  }

  /// RAC's private `+subscriptionScheduler`: runs a block inline when a current scheduler exists,
  /// otherwise on a background scheduler; its timed forms go to the current-or-background scheduler.
  public class func subscription() -> RACScheduler { RACSubscriptionScheduler.shared }

  /// The `RACScheduler` wrapping `core`: the registered wrapper, or a new one.
  public static func wrapping(_ core: any Scheduler) -> RACScheduler {
    if let existing = registry.withCriticalRegion({ $0[ObjectIdentifier(core)]?.value }) { return existing }
    return RACScheduler(core: core)
  }

  // MARK: Scheduling

  /// Schedules `block` to run on the scheduler after the blocks already queued (`-schedule:`).
  @discardableResult
  open func schedule(_ block: @escaping @Sendable () -> Void) -> RACDisposable? {
    // A serial core's worker already sets itself as current, so the block runs as is, unless another
    // wrapper shares the core: then the block marks this wrapper as the one running it.
    let marksWrapper = sharesCore.load(ordering: .relaxed)
    let scheduled =
      marksWrapper || !route.setsCurrentItself
      ? RACScheduledBlock { [self] in self.performAsCurrentScheduler(block) } : RACScheduledBlock(block)
    switch route {
    case .serialCore(let serialCore): serialCore.submit(runnable: scheduled)
    case .submitter(let submitter): submitter.submit(runnable: scheduled)
    case .serialQueue(let serialQueue): serialQueue.submit(scheduled)
    case .closures: core.execute { scheduled.runJob() }
    }
    return scheduled
  }

  /// Schedules `block` at `date` (`-after:schedule:`); a date in the past (`.distantPast`) means as soon
  /// as possible, and one more than 10^15 seconds away (`.distantFuture` is not) means never in practice.
  /// - Precondition: `date` is a valid date (not NaN).
  @discardableResult
  open func after(_ date: Date, schedule block: @escaping @Sendable () -> Void) -> RACDisposable? {
    schedule(at: instant(for: date), block)
  }

  /// Schedules `block` at `deadline` on the core's clock, through the serial queue where there is one.
  private func schedule(at deadline: SchedulerInstant, _ block: @escaping @Sendable () -> Void) -> RACDisposable {
    if case .serialQueue(let serialQueue) = route {
      // The timer hands the block to the serial queue; disposing stops either step.
      let scheduled = RACScheduledBlock { [self] in self.performAsCurrentScheduler(block) }
      let action = core.schedule(at: deadline, leeway: .zero) { serialQueue.submit(scheduled) }
      return RACDisposable(block: {
        action.dispose()
        scheduled.dispose()
      })
    }
    let action = core.schedule(at: deadline, leeway: .zero) { [self] in
      self.performAsCurrentScheduler(block)
    }
    return RACDisposable(action)
  }

  /// Schedules `block` `delay` seconds from now (`-afterDelay:schedule:`); a negative delay (or
  /// `-infinity`) means as soon as possible, and a delay beyond 10^15 seconds (or `+infinity`) means
  /// never in practice (the block stays pending until disposed).
  ///
  /// On virtual time (a `RACTestScheduler`), "now" is the scheduler's virtual now: a block stepped at
  /// second 1 that schedules a block 0.5 seconds later puts it at second 1.5 exactly, however long the
  /// test has really been running. (ReactiveObjC's test scheduler used real dates as ordering keys, so
  /// there the order of nested delays depended on how fast the test ran.)
  /// - Precondition: `delay` is not NaN.
  @discardableResult
  open func afterDelay(_ delay: TimeInterval, schedule block: @escaping @Sendable () -> Void) -> RACDisposable? {
    checkArgument(!delay.isNaN, "afterDelay:schedule: delay must not be NaN (got \(delay))")
    if virtualEpoch != nil {
      return schedule(at: core.now.advanced(by: .clampedSeconds(delay)), block)
    }
    return after(Date(timeIntervalSinceNow: delay), schedule: block)
  }

  /// Schedules `block` at `date` and then every `interval` seconds, anchored to `date` (no drift); each
  /// tick may fire up to `leeway` seconds late so that it can share a wake-up with other timers, as RAC
  /// passed it to Dispatch (`-after:repeatingEvery:withLeeway:schedule:`).
  ///
  /// The timer keeps firing when the returned disposable is dropped, and stops when it is disposed. An
  /// interval shorter than a nanosecond (the clock's resolution) is rounded up to one nanosecond.
  /// - Precondition: `0 < interval < 9223372036` seconds and `0 <= leeway < 9223372036` seconds (what
  ///   ReactiveObjC asserts: both must fit in 64-bit nanoseconds); NaN fails both.
  @discardableResult
  open func after(
    _ date: Date, repeatingEvery interval: TimeInterval, withLeeway leeway: TimeInterval,
    schedule block: @escaping @Sendable () -> Void
  ) -> RACDisposable? {
    let limit = Double(Int64.max) / 1e9
    checkArgument(
      interval > 0 && interval < limit,
      "after:repeatingEvery:withLeeway:schedule: interval must be greater than 0 and less than \(Int64(limit)) seconds (got \(interval))"
    )
    checkArgument(
      leeway >= 0 && leeway < limit,
      "after:repeatingEvery:withLeeway:schedule: leeway must be at least 0 and less than \(Int64(limit)) seconds (got \(leeway))"
    )
    let start = instant(for: date)
    let every = max(Duration.seconds(interval), .nanoseconds(1))
    if case .serialQueue(let serialQueue) = route {
      // Each tick hands a run to the serial queue, unless a run is already queued and not started:
      // ticks that come due while the block is slow coalesce into that one run (the "No drift"
      // guarantee, and what a Dispatch timer on RAC's serial queue did) instead of building a backlog.
      // A run still queued when the timer is disposed does not start.
      let stopped = RACDisposable()
      let runQueued = Atomic<Bool>(false)
      let action = core.scheduleRepeating(startingAt: start, every: every, leeway: .seconds(leeway)) { [self] in
        guard runQueued.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        else { return }
        serialQueue.submit(
          RACScheduledBlock {
            // Cleared before the block runs, so a tick during the run queues the next one.
            runQueued.store(false, ordering: .releasing)
            guard !stopped.isDisposed else { return }
            self.performAsCurrentScheduler(block)
          })
      }
      return RACDisposable(block: {
        action.dispose()
        stopped.dispose()
      })
    }
    let action = core.scheduleRepeating(startingAt: start, every: every, leeway: .seconds(leeway)) { [self] in
      self.performAsCurrentScheduler(block)
    }
    return RACDisposable(action)
  }

  /// Schedules `block`, which can schedule itself again by calling `reschedule`
  /// (`-scheduleRecursiveBlock:`).
  ///
  /// Calls of `reschedule()` made while the block runs do not recurse: each queues one more run, after
  /// the block returns. A later call (from another thread, say) reschedules at once. Disposing the
  /// returned disposable stops the recursion.
  @discardableResult
  open func scheduleRecursiveBlock(
    _ block: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void
  ) -> RACDisposable? {
    let compound = RACCompoundDisposable()
    scheduleRecursive(block, addingTo: compound)
    return compound
  }

  private func scheduleRecursive(
    _ block: @escaping @Sendable (_ reschedule: @escaping @Sendable () -> Void) -> Void,
    addingTo compound: RACCompoundDisposable
  ) {
    let selfDisposable = RACCompoundDisposable()
    compound.add(selfDisposable)
    let scheduling = schedule { [self] in
      // This run has started: its scheduling disposable is no longer needed.
      compound.remove(selfDisposable)
      guard !compound.isDisposed else { return }
      let reallyReschedule: @Sendable () -> Void = { [self] in
        guard !compound.isDisposed else { return }
        scheduleRecursive(block, addingTo: compound)
      }
      let state = RecursionState()
      block {
        if state.deferOrProceed() { reallyReschedule() }
      }
      for _ in 0..<state.finishSynchronousPart() { reallyReschedule() }
    }
    selfDisposable.add(scheduling)
  }

  // MARK: Subclass support

  /// Runs `block` with ``current()`` set to this scheduler, restoring the previous value afterwards
  /// (`-performAsCurrentScheduler:`).
  public func performAsCurrentScheduler(_ block: () -> Void) {
    Schedulers.withCurrent(core) { RACRunningWrapper.with(self) { block() } }
  }

  /// The date of `instant` on the core's clock (the dates `RACSignal.interval` sends): wall-clock, or
  /// measured from the virtual epoch on virtual time.
  final func date(for instant: SchedulerInstant) -> Date {
    if let virtualEpoch {
      let (seconds, attoseconds) = instant.offset.components
      return virtualEpoch.addingTimeInterval(Double(seconds) + Double(attoseconds) / 1e18)
    }
    let (seconds, attoseconds) = core.now.duration(to: instant).components
    return Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18)
  }

  /// The deadline for `date` on the core's clock (measured from the virtual epoch on virtual time).
  final func instant(for date: Date) -> SchedulerInstant {
    if let virtualEpoch {
      let offset = date.timeIntervalSince(virtualEpoch)
      checkArgument(!offset.isNaN, "after: the date is not a valid date (NaN)")
      return SchedulerInstant.zero.advanced(by: .clampedSeconds(offset))
    }
    let delay = date.timeIntervalSinceNow
    checkArgument(!delay.isNaN, "after: the date is not a valid date (NaN)")
    return core.now.advanced(by: .clampedSeconds(delay))
  }

  // MARK: Registry

  private struct WeakScheduler {
    weak var value: RACScheduler?
  }

  private static let registry = Mutex<[ObjectIdentifier: WeakScheduler]>([:])
}

extension Scheduler {
  /// The `RACScheduler` wrapping this scheduler (so callback code can share its queue).
  public var racScheduler: RACScheduler { RACScheduler.wrapping(self) }
}

extension Duration {
  /// `seconds` as a duration, saturating instead of trapping for infinite or huge values.
  static func clampedSeconds(_ seconds: Double) -> Duration {
    let limit = 1e15
    if seconds >= limit { return .seconds(Int64(limit)) }
    if seconds <= -limit { return .seconds(-Int64(limit)) }
    return .seconds(seconds)
  }
}

/// Counts `reschedule()` calls made while a recursive block runs synchronously.
final class RecursionState: Sendable {
  private let state = Mutex<(synchronous: Bool, count: Int)>((true, 0))

  /// Returns `true` when the caller should reschedule now (the synchronous part is over); otherwise
  /// counts one deferred reschedule.
  func deferOrProceed() -> Bool {
    state.withCriticalRegion { state in
      if state.synchronous {
        state.count += 1
        return false
      }
      return true
    }
  }

  /// Ends the synchronous part; returns how many reschedules were deferred.
  func finishSynchronousPart() -> Int {
    state.withCriticalRegion { state in
      state.synchronous = false
      return state.count
    }
  }
}
