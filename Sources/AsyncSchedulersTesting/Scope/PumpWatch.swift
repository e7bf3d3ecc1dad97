import AsyncSchedulers
import Dispatch
import Synchronization

/// Watches every open capturing scope's pump from the watch queue (``WatchThreads``), never from a
/// pump: a job that blocks its pump thread for the scope's stall timeout (a `DispatchSemaphore.wait()`,
/// a lock or `Thread.sleep` waiting for work only the scope can run) is found there, and the scope is
/// handed to a new pump thread (``CaptureScope/pumpBlocked()``), so the work it waits for can run and
/// the test can end.
///
/// One Dispatch timer for the process, armed for the earliest check due (``PumpWatchState`` decides):
/// while no scope is open nothing fires; while scopes are open, a check every half stall timeout at most.
final class PumpWatch: Sendable {
  /// The process's watch.
  static let shared = PumpWatch()

  private struct Storage {
    var state = PumpWatchState()
    /// The scopes watched, by ID (the scope's pump token is read through them).
    var scopes: [UInt64: CaptureScope] = [:]
    /// The watch's timer (set only under the lock, so that armings never cross: setting a Dispatch
    /// timer runs no other code).
    let timer: any DispatchSourceTimer
  }

  private let storage: Mutex<Storage>

  private init() {
    // The package's own Dispatch work: never a timer source of the scope whose thread first asks.
    let timer = PackageDispatch.submit {
      let timer = DispatchSource.makeTimerSource(queue: WatchThreads.timers)
      timer.setEventHandler { PumpWatch.shared.fire() }
      timer.activate()
      return timer
    }
    storage = Mutex(Storage(timer: timer))
  }

  /// Watches `scope`'s pump until ``unwatch(_:)``; a scope that has closed is not watched.
  func watch(_ scope: CaptureScope) {
    let timeout = UInt64(clamping: Int64(scope.options.stallTimeout.saturatingTimeInterval * 1e9))
    storage.withCriticalRegion { storage in
      guard scope.isOpen else { return }
      storage.scopes[scope.id] = scope
      Self.arm(storage.timer, storage.state.watch(scope: scope.id, timeout: timeout, now: Self.now))
    }
  }

  /// Stops watching `scope`.
  func unwatch(_ scope: CaptureScope) {
    storage.withCriticalRegion { storage in
      storage.scopes[scope.id] = nil
      storage.state.unwatch(scope: scope.id)
    }
  }

  /// The timer's handler: checks the scopes due, hands each blocked one to a new pump (outside the lock).
  private func fire() {
    let blocked = storage.withCriticalRegion { storage -> [(CaptureScope, UInt64)] in
      let scopes = storage.scopes
      let (found, arming) = storage.state.fired(now: Self.now) { scopes[$0]?.pumpJob.load(ordering: .acquiring) ?? 0 }
      Self.arm(storage.timer, arming)
      return found.compactMap { found in storage.scopes.removeValue(forKey: found.scope).map { ($0, found.token) } }
    }
    for (scope, token) in blocked { scope.pumpBlocked(token: token) }
  }

  /// Sets `timer` as `arming` says (under the lock).
  private static func arm(_ timer: any DispatchSourceTimer, _ arming: PumpWatchState.Arming) {
    guard case .arm(let uptime) = arming else { return }
    PackageDispatch.submit {
      timer.schedule(deadline: DispatchTime(uptimeNanoseconds: uptime), leeway: .milliseconds(100))
    }
  }

  /// Real uptime, also when asked from a thread running a scope's work (where Dispatch's clock reads
  /// the scope's virtual time).
  private static var now: UInt64 { PackageDispatch.submit { DispatchTime.now().uptimeNanoseconds } }
}
