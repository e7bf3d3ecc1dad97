import AsyncSchedulers

extension SerialDisposable {
  /// The current inner disposable (Rx's spelling of ``SerialDisposable/inner``; a no-op one when none
  /// is set). Setting it disposes the previous one, or the new one if this is already disposed.
  public var disposable: any Disposable {
    get { inner ?? Disposables.create() }
    set { inner = newValue }
  }
}
