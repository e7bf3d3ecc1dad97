import Synchronization

/// A disposable holding one replaceable inner disposable.
///
/// Setting ``inner`` disposes the previous inner (as ReactiveSwift's and RxSwift's `SerialDisposable`
/// do; RAC's `swapInDisposable:` does not: see the bridge's `RACSerialDisposable`). Disposing the
/// serial disposable disposes the current inner; setting an inner after that disposes the new one at
/// once. Inner disposables are always disposed outside the lock, on the calling thread.
public final class SerialDisposable: Disposable {
  private struct State {
    var disposed = false
    var inner: (any Disposable)?
  }

  private let state: Mutex<State>

  /// Creates a serial disposable, optionally holding `inner`.
  public init(_ inner: (any Disposable)? = nil) { state = Mutex(State(inner: inner)) }

  /// Whether the serial disposable has been disposed.
  public var isDisposed: Bool { state.withCriticalRegion { $0.disposed } }

  /// The current inner disposable. Setting it disposes the previous one (outside the lock), or the new
  /// one if the serial disposable is already disposed.
  public var inner: (any Disposable)? {
    get { state.withCriticalRegion { $0.inner } }
    set {
      let toDispose: (any Disposable)? = state.withCriticalRegion { state in
        if state.disposed { return newValue }
        defer { state.inner = newValue }
        return state.inner
      }
      toDispose?.dispose()
    }
  }

  /// Disposes the current inner disposable; only the first call has an effect.
  public func dispose() {
    let inner: (any Disposable)? = state.withCriticalRegion { state in
      guard !state.disposed else { return nil }
      state.disposed = true
      defer { state.inner = nil }
      return state.inner
    }
    inner?.dispose()
  }
}
