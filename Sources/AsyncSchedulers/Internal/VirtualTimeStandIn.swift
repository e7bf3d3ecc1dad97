import Synchronization

/// The seam through which a virtual-time scope stands in for the real schedulers that code names
/// directly instead of taking one from outside (the Rx bridge's `MainScheduler.instance`, a
/// `SerialDispatchQueueScheduler(qos:)` made inside a view model).
///
/// While a scope of the testing module runs, it installs a provider; a layer that wraps such a real
/// scheduler asks ``standIn(for:)`` on each scheduling call, and, when the calling code belongs to a
/// scope (one of its tasks, or work its scheduler runs), schedules on the scheduler returned instead:
/// the scope's, on its virtual clock and in its one FIFO. Code outside every scope, and every call while
/// no scope runs, gets `nil` and keeps the real scheduler. Costs one atomic load per call when no scope
/// runs. The provider runs no user code and never blocks beyond its own short locks.
package enum VirtualTimeStandIn {
  /// What the real scheduler is, so the stand-in keeps its nature.
  package enum Role: Sendable {
    /// A main-actor scheduler: its work runs isolated to the main actor (with the main queue held),
    /// inline when called there while the stand-in is idle if `runsInlineWhenIdle`.
    case mainActor(runsInlineWhenIdle: Bool)
    /// A serial or concurrent scheduler on Dispatch's threads.
    case background
  }

  /// Answers the stand-in for a role, for the calling code, or `nil` outside every scope.
  package typealias Provider = @Sendable (Role) -> (any Scheduler)?

  /// The installed provider, in a box: a closure kept directly in the generic `Mutex` is reabstracted
  /// on each access through it (unspecialized code, as debug builds are, wraps it in two more thunks
  /// every time the critical region hands it back), so a provider read a million times during a long
  /// test run became a chain of thunks that overflowed the stack when called. A class reference is
  /// never reabstracted.
  private final class Installed: Sendable {
    let provide: Provider
    init(_ provide: @escaping Provider) { self.provide = provide }
  }

  private static let isInstalled = Atomic<Bool>(false)
  private static let provider = Mutex<Installed?>(nil)

  /// Installs `provider` (the testing module does, when its first scope starts).
  package static func install(_ provider: @escaping Provider) {
    let installed = Installed(provider)
    self.provider.withCriticalRegion { $0 = installed }
    isInstalled.store(true, ordering: .releasing)
  }

  /// Removes the provider (when the last scope ends).
  package static func remove() {
    isInstalled.store(false, ordering: .releasing)
    provider.withCriticalRegion { $0 = nil }
  }

  /// The scheduler standing in for a real one of `role` for the calling code, or `nil`.
  package static func standIn(for role: Role) -> (any Scheduler)? {
    guard isInstalled.load(ordering: .acquiring) else { return nil }
    return provider.withCriticalRegion { $0 }?.provide(role)
  }
}
