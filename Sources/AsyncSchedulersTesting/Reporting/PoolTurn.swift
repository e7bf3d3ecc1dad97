import AsyncSchedulers
import Dispatch
import Synchronization

/// The cooperative pool's turn: a stall is declared only once the pool has caught up with what was
/// queued on it when the stall timeout ran out.
///
/// A test's real callback wakes its task through the global executor, and so does the step of the test
/// that would drive a scheduler: on a machine whose pool is busy (a parallel suite on two cores), such a
/// wake-up can wait in the pool's queue for longer than the stall timeout, and a watch that looked only
/// at the clock would report a wait that is not a stall. A turn queues a probe task on the global
/// executor (at the tests' default priority, from the watches' own queue, so no capturing scope takes
/// it), which yields once: the turn is over when it runs again, so the jobs queued before it, and the
/// next hop of each, have had the pool first. The probe takes no thread while it waits, and on an idle
/// machine a turn takes microseconds.
final class PoolTurn: Sendable {
  private let over = Atomic<Bool>(false)

  private init() {}

  /// Whether the probe has run twice.
  var isOver: Bool { over.load(ordering: .acquiring) }

  /// Starts a turn; `then` runs (on a thread of the pool) when it is over.
  static func start(then: @escaping @Sendable () -> Void) -> PoolTurn {
    let turn = PoolTurn()
    PackageDispatch.submit {
      WatchThreads.timers.async {
        Task.detached(priority: .medium) {
          await Task.yield()
          turn.over.store(true, ordering: .releasing)
          then()
        }
      }
    }
    return turn
  }

  /// Calls `then` once, on the watches' queue, when the pool's turn is over or `bound` of real time
  /// has passed, whichever comes first (a pool whose threads are all blocked may not get to the probe
  /// at all).
  static func after(bound: Duration, then: @escaping @Sendable () -> Void) {
    let once = ClaimOnce()
    _ = start {
      PackageDispatch.submit { WatchThreads.timers.async { if once.claim() { then() } } }
    }
    let nanoseconds = Int(clamping: UInt64(bound.saturatingTimeInterval * 1e9))
    PackageDispatch.submit {
      WatchThreads.timers.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
        if once.claim() { then() }
      }
    }
  }
}
