import AsyncSchedulers
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One of the Swift runtime's hook variables (`swift_task_*_hook`): installed while at least one
/// capturing scope is active (see ``ActiveScopes``), and the hook that was there before put back when
/// the last one ends. Calls that are not a scope's are handed to that previous hook.
///
/// The runtime exports each hook as a writable C variable with no Swift declaration: it is looked up
/// with `dlsym` and written through a pointer.
final class RuntimeHook<Hook>: @unchecked Sendable {
  // Why @unchecked Sendable: `variable` is looked up once in `init` and never changes; the variable it
  // points to is written only by `install` and `uninstall`, which ``ActiveScopes`` calls under its
  // installation lock; `previous` is behind a Mutex (a thin function pointer, no captures).

  /// The hook that was installed before ours.
  private struct Saved: @unchecked Sendable {
    // Why @unchecked Sendable: a thin function pointer (no captures).
    var hook: Hook?
  }

  private let variable: UnsafeMutablePointer<Hook?>?
  private let saved = Mutex(Saved())

  /// The hook variable exported as `symbol`, if the runtime exports it.
  init(symbol: String) {
    variable = RuntimeSymbols.address(of: symbol)?.assumingMemoryBound(to: Hook?.self)
  }

  /// Whether the runtime exports the variable.
  var isAvailable: Bool { variable != nil }

  /// The hook that was installed before ours.
  var previous: Hook? { saved.withCriticalRegion { $0.hook } }

  /// Installs `hook`, remembering the one there before, until ``uninstall()``.
  func install(_ hook: Hook) {
    guard let variable else { return }
    let before = Saved(hook: variable.pointee)
    saved.withCriticalRegion { $0 = before }
    variable.pointee = hook
  }

  /// Puts back the hook that was installed before ``install(_:)``.
  func uninstall() {
    guard let variable else { return }
    variable.pointee =
      saved.withCriticalRegion { saved in
        defer { saved = Saved() }
        return saved
      }.hook
  }
}
