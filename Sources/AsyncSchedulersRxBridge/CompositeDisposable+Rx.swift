import AsyncSchedulers

extension CompositeDisposable {
  /// The key of a disposable inserted with Rx's ``insert(_:)`` (RxSwift's `CompositeDisposable.DisposeKey`).
  public struct DisposeKey: Sendable {
    let handle: CompositeDisposable.Handle
    let disposable: any Disposable
  }

  /// A composite holding two disposables (Rx's initializer).
  public convenience init(_ disposable1: any Disposable, _ disposable2: any Disposable) {
    self.init([disposable1, disposable2])
  }

  /// A composite holding three disposables (Rx's initializer).
  public convenience init(_ disposable1: any Disposable, _ disposable2: any Disposable, _ disposable3: any Disposable) {
    self.init([disposable1, disposable2, disposable3])
  }

  /// A composite holding all of them (Rx's initializer).
  public convenience init(
    _ disposable1: any Disposable, _ disposable2: any Disposable, _ disposable3: any Disposable,
    _ disposable4: any Disposable, _ disposables: any Disposable...
  ) {
    self.init([disposable1, disposable2, disposable3, disposable4] + disposables)
  }

  /// A composite holding all of them (Rx's initializer).
  public convenience init(disposables: [any Disposable]) { self.init(disposables) }

  /// Adds `disposable` and returns its key, or, when the composite is already disposed, disposes it and
  /// returns `nil` (Rx's `insert`).
  public func insert(_ disposable: any Disposable) -> DisposeKey? {
    let handle = add(disposable)
    if handle.isDisposed && isDisposed { return nil }
    return DisposeKey(handle: handle, disposable: disposable)
  }

  /// Removes the disposable of `disposeKey` and disposes it, if it is still in the composite (Rx's
  /// `remove(for:)`; the core's handles remove without disposing, as RAC does). A second call with the
  /// same key, or a call after the composite was disposed (which disposed the item), does nothing: each
  /// item is disposed once, as in RxSwift.
  public func remove(for disposeKey: DisposeKey) {
    guard remove(disposeKey.handle) else { return }
    disposeKey.disposable.dispose()
  }
}
