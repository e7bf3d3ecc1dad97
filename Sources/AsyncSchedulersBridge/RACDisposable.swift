import AsyncSchedulers
import Synchronization

/// ReactiveObjC's `RACDisposable`, unchanged in behaviour, and a core `Disposable`.
///
/// The block runs at most once, on the first `dispose()`, on the disposing thread, with no lock held.
/// Releasing a plain `RACDisposable` does **not** dispose it (use ``asScopedDisposable()`` for that).
/// Subclasses override ``dispose()`` and ``isDisposed``.
open class RACDisposable: Disposable, @unchecked Sendable {
  // Why @unchecked Sendable: the class is open (RAC's hierarchy subclasses it); its own state is an
  // Atomic and a Mutex, and subclasses in this module keep theirs behind locks too.
  private let disposed = Atomic<Bool>(false)
  private let block: Mutex<(@Sendable () -> Void)?>

  /// Creates a disposable that only records that it was disposed (`[RACDisposable new]`).
  public init() { block = Mutex(nil) }

  /// Creates a disposable that runs `block` when first disposed (`+disposableWithBlock:`).
  public init(block: @escaping @Sendable () -> Void) { self.block = Mutex(block) }

  /// Wraps a core disposable (or a `Task`): disposing this one disposes it.
  public convenience init(_ disposable: any Disposable) {
    self.init(block: { disposable.dispose() })
  }

  /// Whether ``dispose()`` has been called.
  open var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  /// Runs the block if this is the first call; thread-safe and idempotent.
  open func dispose() {
    guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    let body = block.withCriticalRegion { stored -> (@Sendable () -> Void)? in
      defer { stored = nil }
      return stored
    }
    body?()
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
