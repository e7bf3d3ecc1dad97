/// A disposable that disposes its inner disposable when it is released (or explicitly disposed).
///
/// Keep it in a property to tie work to an object's lifetime (RAC's `RACScopedDisposable`,
/// ReactiveSwift's `ScopedDisposable`). The inner is disposed on the thread that releases the last
/// reference.
public final class ScopedDisposable<Inner: Disposable>: Disposable {
  /// The disposable that is disposed when this one is released.
  public let inner: Inner

  /// Wraps `inner` so that it is disposed when this object is released.
  public init(_ inner: Inner) { self.inner = inner }

  deinit { inner.dispose() }

  /// Whether the inner disposable has been disposed.
  public var isDisposed: Bool { inner.isDisposed }

  /// Disposes the inner disposable now.
  public func dispose() { inner.dispose() }
}

extension Disposable {
  /// Wraps this disposable in a ``ScopedDisposable`` that disposes it when released.
  public func scoped() -> ScopedDisposable<Self> { ScopedDisposable(self) }
}
