import AsyncSchedulers
import Synchronization

/// RxSwift's disposable that only records that it was disposed.
public final class BooleanDisposable: Cancelable {
  private let disposed: Atomic<Bool>

  /// A disposable not yet disposed.
  public init() { disposed = Atomic(false) }

  /// A disposable that starts disposed or not.
  public init(isDisposed: Bool) { disposed = Atomic(isDisposed) }

  /// Whether `dispose()` was called.
  public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  /// Records the disposal; thread-safe.
  public func dispose() { disposed.store(true, ordering: .releasing) }
}
