import AsyncSchedulers
import Dispatch
import Foundation
import Synchronization

/// The threads that run capturing scopes' pumps, parked between scopes and reused, so that a test
/// process running scope after scope does not start a thread per scope.
///
/// Reuse matters for speed as much as for thread churn: the C library gives each new thread a memory
/// arena of its own, which grows a page at a time and is trimmed when the thread's allocations are
/// freed; a scope's tasks are allocated and freed on its pump, so a fresh thread per scope paid for
/// regrowing (and faulting in) that arena every time. A reused pump keeps its arena.
///
/// Scopes run in parallel, one pump thread each: a scope takes an idle thread when one is parked and
/// starts one otherwise. An idle thread waits (blocked, no CPU) and ends after ``idleLifetime`` without
/// work.
final class PumpThreads: Sendable {
  /// The threads of the process.
  static let shared = PumpThreads(idleLifetime: .seconds(30))

  /// How long an idle pump thread waits for another scope before it ends.
  let idleLifetime: DispatchTimeInterval

  private let idle = Mutex<[PumpThread]>([])
  private let started = Atomic<Int>(0)
  private let live = Atomic<Int>(0)

  private let threadEnded: @Sendable () -> Void

  /// A pool whose idle threads end after `idleLifetime`; `threadEnded` runs on each thread as it ends.
  init(idleLifetime: DispatchTimeInterval, threadEnded: @escaping @Sendable () -> Void = {}) {
    self.idleLifetime = idleLifetime
    self.threadEnded = threadEnded
  }

  /// How many threads this pool has started.
  var threadsStarted: Int { started.load(ordering: .relaxed) }

  /// How many of this pool's threads are running (busy or idle).
  var liveThreads: Int { live.load(ordering: .acquiring) }

  /// Runs `body` on an idle pump thread, or on a new one, named `name` while it runs. Returns at once.
  func run(named name: String, _ body: @escaping @Sendable () -> Void) {
    if let thread = idle.withCriticalRegion({ $0.popLast() }) {
      thread.hand(body, named: name)
      return
    }
    let thread = PumpThread(pool: self)
    thread.hand(body, named: name)
    started.add(1, ordering: .relaxed)
    live.add(1, ordering: .relaxed)
    let runner = Thread { [self] in
      thread.serve()
      live.subtract(1, ordering: .releasing)
      threadEnded()
    }
    runner.name = name
    runner.start()
  }

  /// Parks `thread` among the idle ones.
  fileprivate func park(_ thread: PumpThread) { idle.withCriticalRegion { $0.append(thread) } }

  /// Takes `thread` out of the idle ones; `false` when a scope took it first (work is on its way).
  fileprivate func retire(_ thread: PumpThread) -> Bool {
    idle.withCriticalRegion { idle in
      guard let index = idle.firstIndex(where: { $0 === thread }) else { return false }
      idle.remove(at: index)
      return true
    }
  }
}

/// One pump thread: a slot for the next body and a semaphore it waits on.
private final class PumpThread: Sendable {
  private let pool: PumpThreads
  private let next = Mutex<(body: @Sendable () -> Void, name: String)?>(nil)
  private let arrived = DispatchSemaphore(value: 0)

  init(pool: PumpThreads) { self.pool = pool }

  /// Hands the thread its next body (it is idle: no body is pending).
  func hand(_ body: @escaping @Sendable () -> Void, named name: String) {
    next.withCriticalRegion { $0 = (body, name) }
    arrived.signal()
  }

  /// The thread's loop: runs each body handed to it, parks in between, ends when idle too long.
  func serve() {
    while true {
      if arrived.wait(timeout: .now() + pool.idleLifetime) == .timedOut {
        if pool.retire(self) { return }
        continue  // A scope took this thread as the wait ended: its body is on its way.
      }
      guard let (body, name) = next.withCriticalRegion({ $0.take() }) else { continue }
      if Thread.current.name != name { Thread.current.name = name }
      body()
      pool.park(self)
    }
  }
}
