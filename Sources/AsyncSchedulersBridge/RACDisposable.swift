import AsyncSchedulers
import Synchronization

/// ReactiveObjC's `RACDisposable`, unchanged in behaviour, and a core `Disposable`.
///
/// The block runs at most once, on the first `dispose()`, on the disposing thread, with no lock held.
/// Releasing a plain `RACDisposable` does **not** dispose it (use ``asScopedDisposable()`` for that).
/// Subclasses override ``dispose()`` and ``isDisposed``.
open class RACDisposable: Disposable, @unchecked Sendable {
  // Why @unchecked Sendable: the class is open (RAC's hierarchy subclasses it). Its own closure is
  // read and cleared only by the one thread whose compare-and-swap moved `phase` out of `active`
  // (`dispose()` to `disposed`, or `takeJob()` to `ran`; a later `dispose()` from `ran` leaves the
  // slot alone); the swap orders those accesses. `isJob` is a
  // `let`. Subclasses in this module keep their state behind locks.

  enum Phase {
    /// Not disposed; a scheduled job has not run.
    static let active: UInt8 = 0
    /// Not disposed; the scheduled job was taken to run.
    static let ran: UInt8 = 1
    static let disposed: UInt8 = 2
  }

  private let phase = Atomic<UInt8>(Phase.active)
  /// Whether `block` is a scheduled job (released on dispose, never run by it) rather than the block
  /// to run on the first `dispose()`.
  private let isJob: Bool
  /// The dispose block, or the block of a scheduled job (``RACScheduledBlock``).
  @exclusivity(unchecked) private var block: (@Sendable () -> Void)?

  /// Creates a disposable that only records that it was disposed (`[RACDisposable new]`).
  public init() { isJob = false }

  /// Creates a disposable that runs `block` when first disposed (`+disposableWithBlock:`).
  public init(block: @escaping @Sendable () -> Void) {
    isJob = false
    self.block = block
  }

  /// Creates the disposable of a scheduled job (the bridge's `schedule`).
  init(job: @escaping @Sendable () -> Void) {
    isJob = true
    block = job
  }

  /// Wraps a core disposable (or a `Task`): disposing this one disposes it.
  public convenience init(_ disposable: any Disposable) {
    self.init(block: { disposable.dispose() })
  }

  /// Whether ``dispose()`` has been called.
  open var isDisposed: Bool { phase.load(ordering: .relaxed) == Phase.disposed }

  /// Runs the block if this is the first call; thread-safe and idempotent. A scheduled block that has
  /// not started yet will not start, and is released at once.
  open func dispose() {
    var current = phase.load(ordering: .relaxed)
    while current != Phase.disposed {
      let (exchanged, original) = phase.compareExchange(
        expected: current, desired: Phase.disposed, ordering: .acquiringAndReleasing)
      if exchanged {
        // From `ran`, `takeJob()` owns the slot (it took the job and clears it): touching it here
        // would race with it. From `active`, the slot is ours: a dispose block runs here, a job not
        // taken yet is released here, unrun. Either way outside every lock.
        guard current == Phase.active else { return }
        let taken = block
        block = nil
        if !isJob { taken?() }
        withExtendedLifetime(taken) {}
        return
      }
      current = original
    }
  }

  /// Takes the scheduled job to run it, unless this disposable was disposed (or the job already
  /// taken). Called once by the scheduler that runs the job.
  final func takeJob() -> (@Sendable () -> Void)? {
    guard phase.compareExchange(expected: Phase.active, desired: Phase.ran, ordering: .acquiring).exchanged
    else { return nil }
    defer { block = nil }
    return block
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
