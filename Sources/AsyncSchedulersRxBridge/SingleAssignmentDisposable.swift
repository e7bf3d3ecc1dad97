import AsyncSchedulers
import Synchronization

/// RxSwift's disposable that is given its inner disposable once.
///
/// Disposing it disposes the inner one (or, if none is set yet, the one set later, at once).
public final class SingleAssignmentDisposable: Cancelable {
  private struct State {
    var disposable: (any Disposable)?
    var isSet = false
    var disposed = false
  }

  private let state = Mutex(State())

  /// An empty single-assignment disposable.
  public init() {}

  /// Whether it was disposed.
  public var isDisposed: Bool { state.withCriticalRegion { $0.disposed } }

  /// Sets the inner disposable; disposes it at once if this one is already disposed.
  /// - Precondition: not set before (a second assignment stops the program, as in Rx).
  public func setDisposable(_ disposable: any Disposable) {
    let disposeNow = state.withCriticalRegion { state -> Bool in
      checkArgument(!state.isSet, "SingleAssignmentDisposable: setDisposable called a second time")
      state.isSet = true
      if state.disposed { return true }
      state.disposable = disposable
      return false
    }
    if disposeNow { disposable.dispose() }
  }

  /// Disposes the inner disposable (once), on the calling thread, outside the lock.
  public func dispose() {
    let inner = state.withCriticalRegion { state -> (any Disposable)? in
      guard !state.disposed else { return nil }
      state.disposed = true
      defer { state.disposable = nil }
      return state.disposable
    }
    inner?.dispose()
  }
}
