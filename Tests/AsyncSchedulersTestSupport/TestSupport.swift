import AsyncSchedulers
import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counts down events from any thread; a test awaits it with a generous real-time bound instead of
/// sleeping for a fixed time.
///
/// The bound is a Dispatch timer, not one of this package's schedulers: a regression in the code under
/// test makes the wait fail, never hang.
package final class Latch: Sendable {
  private struct State {
    var remaining: Int
    var waiter: CheckedContinuation<Bool, Never>?
  }

  private let state: Mutex<State>

  package init(count: Int = 1) { state = Mutex(State(remaining: count)) }

  /// Records one event.
  package func signal() {
    let waiter = state.withCriticalRegion { state -> CheckedContinuation<Bool, Never>? in
      state.remaining -= 1
      guard state.remaining == 0 else { return nil }
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume(returning: true)
  }

  /// Whether every event has happened.
  package var isOpen: Bool { state.withCriticalRegion { $0.remaining <= 0 } }

  /// Waits until every event has happened; returns `false` if `timeout` passed first. One waiter at a
  /// time. The default bound is generous: under ThreadSanitizer, with the whole suite running on two
  /// cores, a new task has waited more than a minute for a thread, and the Swift 6.3.1 runtime can stall
  /// every thread for minutes at the start of the sanitized run (a lost wake-up in the once that caches
  /// `Optional`'s canonical prespecialized metadata, `$sSqMz`: seen for 2.5 to 12 minutes, on this
  /// project's commits from before and after the ordering exploration alike).
  package func wait(timeout: Duration = .seconds(1_200)) async -> Bool {
    await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
      let openAlready = state.withCriticalRegion { state -> Bool in
        if state.remaining <= 0 { return true }
        precondition(state.waiter == nil, "Latch: one waiter at a time")
        state.waiter = continuation
        return false
      }
      if openAlready {
        continuation.resume(returning: true)
        return
      }
      let (seconds, attoseconds) = timeout.components
      let nanoseconds =
        seconds >= Int64(Int.max / 1_000_000_000)
        ? Int.max : Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
      DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(max(nanoseconds, 0))) {
        let waiter = self.state.withCriticalRegion { state in
          defer { state.waiter = nil }
          return state.waiter
        }
        waiter?.resume(returning: false)
      }
    }
  }
}

/// A thread-safe log of values, for traces.
package final class Log<Value: Sendable>: Sendable {
  private let storage = Mutex<[Value]>([])
  package init() {}
  package func append(_ value: Value) { storage.withCriticalRegion { $0.append(value) } }
  package var values: [Value] { storage.withCriticalRegion { $0 } }
}

/// Counts live instances, to prove closures and their captures are released.
package final class LifetimeCounter: Sendable {
  private let live = Atomic<Int>(0)
  package init() {}
  package var count: Int { live.load(ordering: .acquiring) }

  package final class Token: Sendable {
    let counter: LifetimeCounter
    init(_ counter: LifetimeCounter) {
      self.counter = counter
      counter.live.wrappingAdd(1, ordering: .relaxed)
    }
    deinit { counter.live.wrappingSubtract(1, ordering: .releasing) }
  }

  package func make() -> Token { Token(self) }
}

/// Runs blocking test work (a long deterministic loop, a multi-thread stress) on a thread of its own
/// and awaits its result.
///
/// A synchronous test body runs on one of the cooperative pool's threads, which number as many as the
/// cores: on a 2-core machine two long synchronous tests starve every other test's tasks, and a task a
/// test is waiting for may not start within the test's bound. Work moved here leaves the pool free.
/// Record expectations on the result in the test, not in `body` (it runs outside the test's task).
package func onDedicatedThread<Result: Sendable>(
  _ body: @escaping @Sendable () -> Result
) async -> Result {
  await withCheckedContinuation { (continuation: CheckedContinuation<Result, Never>) in
    Thread.detachNewThread { continuation.resume(returning: body()) }
  }
}

/// Lowers the calling thread's scheduling priority, so a test that keeps cores busy on purpose (a
/// spinning thread, a long loop) yields them to the other tests running in parallel.
///
/// On Linux the nice value is per thread; elsewhere this does nothing.
package func lowerCurrentThreadPriority() {
  #if canImport(Glibc)
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
  #endif
}

/// Whether this process runs under ThreadSanitizer (`swift test --sanitize=thread`).
package let isThreadSanitized: Bool = {
  #if os(Linux)
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_acquire") != nil
  #else
    dlsym(UnsafeMutableRawPointer(bitPattern: -2), "__tsan_acquire") != nil
  #endif
}()

/// The CPU time the calling thread has used so far.
///
/// A speed check measured in CPU time, not wall time, is not failed by a loaded machine preempting the
/// thread (tests run in parallel, on shared CI machines).
package func currentThreadCPUTime() -> Duration {
  var spec = timespec()
  let status = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
  precondition(status == 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed")
  return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
}

/// Stops a repeating timer at its first firing, from inside it: on a real scheduler a tiny interval
/// (a nanosecond, an attosecond) fires as fast as a core allows, which starves the other tests running
/// in parallel until the test gets round to disposing it.
package final class StopAtFirstFire: Sendable {
  private let state = Mutex<(stop: (@Sendable () -> Void)?, fired: Bool)>((nil, false))
  /// Opens at the first firing.
  package let fired = Latch()

  package init() {}

  /// Call from the timer's body: stops the timer (once its handle is attached) and opens ``fired``.
  package func fire() {
    let stop = state.withCriticalRegion { state -> (@Sendable () -> Void)? in
      state.fired = true
      return state.stop
    }
    stop?()
    fired.signal()
  }

  /// Call with what stops the timer (its handle's `dispose`) once scheduling returns; stops it at once
  /// if it already fired.
  package func attach(_ stop: @escaping @Sendable () -> Void) {
    let firedAlready = state.withCriticalRegion { state -> Bool in
      state.stop = stop
      return state.fired
    }
    if firedAlready { stop() }
  }
}

/// Whether the bad-input fuzz suites run their refused-argument cases, one child process each
/// (`ASYNC_SCHEDULERS_FUZZ=1`; `.ci/run` sets it for its release-build run of the `BadInput` suites).
///
/// About 120 child processes: in the default `swift test` they would compete for the two cores with the
/// whole suite and slow its real-time tests; the in-process fuzz cases always run.
package enum BadInputFuzz {
  /// Whether `ASYNC_SCHEDULERS_FUZZ` is set (to anything but 0).
  package static var runsStops: Bool {
    (ProcessInfo.processInfo.environment["ASYNC_SCHEDULERS_FUZZ"] ?? "0") != "0"
  }
}

/// Settings of the model-based and stress tests: how many random sequences to run, and the base seed.
///
/// The default run is short (the whole suite stays under a minute on 2 cores). Set
/// `ASYNC_SCHEDULERS_SOAK=N` to run N times as many sequences (`.ci/run` does, under a time budget), and
/// `ASYNC_SCHEDULERS_SEED=S` to replay the sequences starting at seed S (a failure prints its seed).
package enum ModelTesting {
  /// The multiplier from `ASYNC_SCHEDULERS_SOAK` (1 when unset).
  package static var soak: Int {
    ProcessInfo.processInfo.environment["ASYNC_SCHEDULERS_SOAK"].flatMap(Int.init).map { Swift.max($0, 1) } ?? 1
  }

  /// The first seed: `ASYNC_SCHEDULERS_SEED`, or a fixed default so that runs are reproducible.
  package static var baseSeed: UInt64 {
    ProcessInfo.processInfo.environment["ASYNC_SCHEDULERS_SEED"].flatMap { UInt64($0) } ?? 0xA51C_5EED
  }

  /// The seeds of `count` sequences (times the soak multiplier).
  package static func seeds(_ count: Int) -> [UInt64] {
    let base = baseSeed
    return (0..<UInt64(count * soak)).map { base &+ $0 }
  }
}

/// The failures a model-based test found, collected off the test's task (see ``runModel(_:)``).
package final class ModelFailures: @unchecked Sendable {
  // Why @unchecked Sendable: used by one thread at a time: the dedicated thread while the body runs,
  // then the test once `runModel` has returned (the continuation orders the two).
  package private(set) var messages: [String] = []

  /// Records a failure (the first 20 are kept).
  package func record(_ message: String) {
    if messages.count < 20 { messages.append(message) }
  }

  /// Records `message` unless `condition` holds.
  package func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { record(message()) }
  }
}

/// Runs a long model-based or random test on a thread of its own (see ``onDedicatedThread(_:)``: it
/// must not hold one of the cooperative pool's threads that other tests' tasks need) and returns the
/// failures it recorded; the test then reports them.
package func runModel(_ body: @escaping @Sendable (ModelFailures) -> Void) async -> [String] {
  await onModelThread {
    let failures = ModelFailures()
    body(failures)
    return failures.messages
  }
}

/// Runs a model-based test's loop on a dedicated thread of lowered priority (so the tests running in
/// parallel keep their share of the cores), one loop at a time under ThreadSanitizer.
package func onModelThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
  await onDedicatedThread {
    lowerCurrentThreadPriority()
    if isThreadSanitized { sanitizedModelGate.wait() }
    defer { if isThreadSanitized { sanitizedModelGate.signal() } }
    return body()
  }
}

/// Under ThreadSanitizer, model bodies run one at a time.
///
/// The sanitized Swift runtime never marks a once-flag done (so that ThreadSanitizer sees every access
/// synchronize), so each use of a standard-library type with prespecialized metadata takes that once's
/// priority-inheriting futex. Twenty model loops started together hand one such lock over by a context
/// switch at every access: measured on two cores, the sanitized suite then finished no test for more than
/// ten minutes (CI's bound was passed once). One loop at a time takes the lock uncontended.
private let sanitizedModelGate = DispatchSemaphore(value: 1)

/// Runs `body(thread)` on `threads` Dispatch threads released at the same moment, and returns once all
/// have finished: the start line of the stress tests' races.
package func race(threads: Int = 8, _ body: @escaping @Sendable (_ thread: Int) -> Void) {
  let start = DispatchSemaphore(value: 0)
  let group = DispatchGroup()
  for thread in 0..<threads {
    DispatchQueue.global().async(group: group) {
      start.wait()
      body(thread)
    }
  }
  for _ in 0..<threads { start.signal() }
  group.wait()
}

/// A disposable that counts its disposals (exactly-once checks).
package final class CountingDisposable: Disposable {
  /// How many times `dispose()` was called.
  package let disposals = Atomic<Int>(0)
  package init() {}
  package func dispose() { disposals.wrappingAdd(1, ordering: .relaxed) }
  package var isDisposed: Bool { disposals.load(ordering: .relaxed) > 0 }
}

/// Threads that burn CPU while a test runs, to show that a result does not depend on the machine's
/// load: `count` threads spin on a flag until ``stop()``.
package final class CPUHogs: Sendable {
  private let running = Atomic<Bool>(true)
  private let stopped: DispatchGroup

  /// Starts `count` burning threads.
  package init(count: Int = 2) {
    stopped = DispatchGroup()
    for index in 0..<count {
      stopped.enter()
      let thread = Thread { [self, stopped] in
        var spins: UInt64 = 0
        while running.load(ordering: .relaxed) { spins &+= 1 }
        withExtendedLifetime(spins) {}
        stopped.leave()
      }
      thread.name = "CPU hog \(index + 1)"
      thread.start()
    }
  }

  /// Stops the threads and waits for them to end.
  package func stop() {
    running.store(false, ordering: .relaxed)
    stopped.wait()
  }
}

/// One refused argument of a bad-input fuzz table: an id, by which a child process finds the call, and
/// the message the call must stop the program with.
package struct RefusedArgument: Codable, Sendable, CustomStringConvertible {
  package let id: String
  package let message: String
  package var description: String { id }
}

/// A bad-input fuzz table of refused arguments, each with the call that makes it (the exit tests run
/// each call in a child process, found by its id).
package struct RefusedArguments: Sendable {
  private var calls: [(argument: RefusedArgument, call: @Sendable () -> Void)] = []

  package init() {}

  /// Adds a case: `call` must stop the program with `message`.
  package mutating func add(_ id: String, _ message: String, _ call: @escaping @Sendable () -> Void) {
    calls.append((RefusedArgument(id: id, message: message), call))
  }

  /// Every case, for a parameterized test.
  package var cases: [RefusedArgument] { calls.map(\.argument) }

  /// Makes the call of case `id` (in the exit test's child process).
  package func perform(_ id: String) {
    guard let call = calls.first(where: { $0.argument.id == id })?.call else { fatalError("no fuzz case \(id)") }
    call()
  }
}

/// The real monotonic clock, read from the C library: inside a capturing scope, `ContinuousClock.now`
/// and `DispatchTime.now()` read the scope's virtual time, so a test measuring real time reads this.
package func realUptimeNanoseconds() -> UInt64 {
  var spec = timespec()
  _ = clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}
