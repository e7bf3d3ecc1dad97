import AsyncSchedulers
import Synchronization

/// RxSwift's reference-counted disposable: the underlying disposable is disposed once the primary
/// disposable is disposed *and* every disposable handed out by ``retain()`` is.
public final class RefCountDisposable: Cancelable {
  private struct State {
    var underlying: (any Disposable)?
    var primaryDisposed = false
    var count = 0
  }

  private let state: Mutex<State>

  /// Wraps `disposable`.
  public init(disposable: any Disposable) { state = Mutex(State(underlying: disposable)) }

  /// Whether the underlying disposable was disposed.
  public var isDisposed: Bool { state.withCriticalRegion { $0.underlying == nil } }

  /// A disposable that keeps the underlying one alive until it is disposed (once). After the underlying
  /// one was disposed, a no-op disposable.
  public func retain() -> any Disposable {
    let retained = state.withCriticalRegion { state -> Bool in
      guard state.underlying != nil else { return false }
      state.count += 1
      return true
    }
    guard retained else { return Disposables.create() }
    return AnyDisposable { [self] in release() }
  }

  /// Disposes the primary reference; the underlying disposable goes when no retained one remains.
  public func dispose() {
    let underlying = state.withCriticalRegion { state -> (any Disposable)? in
      guard !state.primaryDisposed else { return nil }
      state.primaryDisposed = true
      guard state.count == 0 else { return nil }
      defer { state.underlying = nil }
      return state.underlying
    }
    underlying?.dispose()
  }

  private func release() {
    let underlying = state.withCriticalRegion { state -> (any Disposable)? in
      state.count -= 1
      guard state.primaryDisposed && state.count == 0 else { return nil }
      defer { state.underlying = nil }
      return state.underlying
    }
    underlying?.dispose()
  }
}
