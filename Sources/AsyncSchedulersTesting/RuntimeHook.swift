import AsyncSchedulers
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One of the Swift runtime's hook variables (`swift_task_*_hook`), installed for one capturing scope
/// at a time and restored afterwards: the variable's address, the scope it routes to, and the hook that
/// was there before ours (handed the calls that are not the scope's).
///
/// The runtime exports each hook as a writable C variable with no Swift declaration: it is looked up
/// with `dlsym` and written through a pointer.
final class RuntimeHook<Hook>: @unchecked Sendable {
  // Why @unchecked Sendable: `variable` is looked up once in `init` and never changes; the variable it
  // points to is written only by `install` and `uninstall`, which the process-wide `CaptureLock`
  // serializes (one active scope), and read by the runtime; `route` is behind a Mutex.

  /// The scope a hook routes to, and the hook installed before ours.
  struct Route: @unchecked Sendable {
    // Why @unchecked Sendable: `previous` is a thin function pointer (no captures).
    let scheduler: TestScheduler
    let scope: UInt64
    let previous: Hook?
  }

  private let variable: UnsafeMutablePointer<Hook?>?
  private let route = Mutex<Route?>(nil)

  /// The hook variable exported as `symbol`, if the runtime exports it.
  init(symbol: String) {
    variable = dlsym(dlopen(nil, RTLD_NOW), symbol)?.assumingMemoryBound(to: Hook?.self)
  }

  /// Whether the runtime exports the variable.
  var isAvailable: Bool { variable != nil }

  /// The active scope's route, or `nil` when no scope is active.
  var activeRoute: Route? { route.withCriticalRegion { $0 } }

  /// Installs `hook` for `scope` of `scheduler` until ``uninstall()``. Call with the `CaptureLock` held.
  func install(_ hook: Hook, scheduler: TestScheduler, scope: UInt64) {
    guard let variable else { return }
    route.withCriticalRegion { $0 = Route(scheduler: scheduler, scope: scope, previous: variable.pointee) }
    variable.pointee = hook
  }

  /// Puts back the hook that was installed before ``install(_:scheduler:scope:)``.
  func uninstall() {
    guard let variable else { return }
    let previous = route.withCriticalRegion { route -> Hook? in
      defer { route = nil }
      return route?.previous
    }
    variable.pointee = previous
  }
}

/// Looks up a function the Swift runtime exports, as a thin function of type `Function`.
func runtimeFunction<Function>(_ symbol: String, as type: Function.Type) -> Function? {
  dlsym(dlopen(nil, RTLD_NOW), symbol).map { unsafeBitCast($0, to: Function.self) }
}
