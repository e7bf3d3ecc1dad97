import AsyncSchedulers
import Synchronization

/// ReactiveObjC's `RACDisposable`, unchanged in behaviour, and a core `Disposable`.
///
/// The block runs at most once, on the first `dispose()`, on the disposing thread, with no lock held.
/// Releasing a plain `RACDisposable` does **not** dispose it (use ``asScopedDisposable()`` for that).
/// Subclasses override ``dispose()`` and ``isDisposed``.
open class RACDisposable: Disposable, @unchecked Sendable {
  // Why @unchecked Sendable: the class is open (RAC's hierarchy subclasses it); its own state is one
  // Mutex, and subclasses in this module keep theirs behind locks too.

  struct State {
    var disposed = false
    /// Runs on the first `dispose()`.
    var onDispose: (@Sendable () -> Void)?
    /// The block of a scheduled job (``RACScheduledBlock``), released on dispose or when it runs.
    var job: (@Sendable () -> Void)?
  }

  let baseState: Mutex<State>

  /// Creates a disposable that only records that it was disposed (`[RACDisposable new]`).
  public init() { baseState = Mutex(State()) }

  /// Creates a disposable that runs `block` when first disposed (`+disposableWithBlock:`).
  public init(block: @escaping @Sendable () -> Void) { baseState = Mutex(State(onDispose: block)) }

  /// Creates the disposable of a scheduled job (the bridge's `schedule`).
  init(job: @escaping @Sendable () -> Void) { baseState = Mutex(State(job: job)) }

  /// Wraps a core disposable (or a `Task`): disposing this one disposes it.
  public convenience init(_ disposable: any Disposable) {
    self.init(block: { disposable.dispose() })
  }

  /// Whether ``dispose()`` has been called.
  open var isDisposed: Bool { baseState.withCriticalRegion { $0.disposed } }

  /// Runs the block if this is the first call; thread-safe and idempotent. A scheduled block that has
  /// not started yet will not start, and is released at once.
  open func dispose() {
    let released = baseState.withCriticalRegion { state -> (onDispose: (@Sendable () -> Void)?, job: (@Sendable () -> Void)?)? in
      guard !state.disposed else { return nil }
      state.disposed = true
      defer {
        state.onDispose = nil
        state.job = nil
      }
      return (state.onDispose, state.job)
    }
    released?.onDispose?()
    // The job's closure, if any, is freed here, outside the lock.
  }

  /// A scoped disposable that disposes this one when it is released (`-asScopedDisposable`).
  public func asScopedDisposable() -> RACScopedDisposable { RACScopedDisposable(disposable: self) }
}

/// ReactiveObjC's `RACScopedDisposable`: disposes its inner disposable when released.
public final class RACScopedDisposable: RACDisposable, @unchecked Sendable {
  // Why @unchecked Sendable: `inner` is a `let` of a Sendable type; the base class's state is locked.
  private let inner: RACDisposable

  /// Wraps `disposable` so that it is disposed when this object is released.
  public init(disposable: RACDisposable) {
    inner = disposable
    super.init()
  }

  deinit { inner.dispose() }

  /// Whether the inner disposable has been disposed.
  public override var isDisposed: Bool { inner.isDisposed }

  /// Disposes the inner disposable now.
  public override func dispose() { inner.dispose() }
}
