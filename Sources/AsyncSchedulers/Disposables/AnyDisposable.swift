import Synchronization

/// A disposable that runs an action exactly once, on the first call to ``dispose()``.
///
/// The action runs synchronously on the thread that calls `dispose()` first, with no lock held, so it
/// may itself dispose other things (or this one again: re-entrant calls return at once). The action and
/// everything it captures are released as soon as it has run. Releasing an `AnyDisposable` without
/// disposing it does *not* run the action (RAC's `RACDisposable` semantics); use ``ScopedDisposable``
/// for dispose-on-release.
public final class AnyDisposable: Disposable {
  private let action: Mutex<(@Sendable () -> Void)?>
  private let disposed = Atomic<Bool>(false)

  /// Creates a disposable that only records that it was disposed.
  public init() { action = Mutex(nil) }

  /// Creates a disposable that runs `action` on its first disposal, on the disposing thread.
  public init(_ action: @escaping @Sendable () -> Void) { self.action = Mutex(action) }

  /// Creates a disposable that disposes `other` on its first disposal.
  public convenience init(_ other: some Disposable) { self.init { other.dispose() } }

  /// Whether ``dispose()`` has been called.
  public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  /// Runs the action if this is the first call; later and concurrent calls do nothing.
  public func dispose() {
    guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let body = action.withCriticalRegion { stored -> (@Sendable () -> Void)? in
      defer { stored = nil }
      return stored
    }
    body?()
  }
}
