import AsyncSchedulers
import Synchronization

/// ReactiveObjC's `RACSerialDisposable`: holds one replaceable inner disposable.
///
/// RAC semantics, which differ from the core ``/AsyncSchedulers/SerialDisposable``: swapping in a new
/// inner does **not** dispose the old one (it is returned); swapping into a disposed serial disposable
/// disposes the new one at once and returns `nil`; disposing disposes the current inner.
public final class RACSerialDisposable: RACDisposable, @unchecked Sendable {
  // Why @unchecked Sendable: all state is in `state`, a Mutex.
  private struct State {
    var disposed = false
    var inner: RACDisposable?
  }

  private let state = Mutex(State())

  /// Creates an empty serial disposable.
  public override init() { super.init() }

  /// Creates a serial disposable holding `disposable` (`+serialDisposableWithDisposable:`).
  public init(disposable: RACDisposable?) {
    super.init()
    state.withCriticalRegion { $0.inner = disposable }
  }

  /// Whether the serial disposable has been disposed.
  public override var isDisposed: Bool { state.withCriticalRegion { $0.disposed } }

  /// The inner disposable. Setting it swaps it in without disposing the previous one.
  public var disposable: RACDisposable? {
    get { state.withCriticalRegion { $0.inner } }
    set { _ = swapIn(newValue) }
  }

  /// Replaces the inner disposable and returns the previous one, undisposed (`-swapInDisposable:`).
  /// If this serial disposable is already disposed, `newDisposable` is disposed and `nil` returned.
  @discardableResult
  public func swapIn(_ newDisposable: RACDisposable?) -> RACDisposable? {
    let (alreadyDisposed, previous) = state.withCriticalRegion { state -> (Bool, RACDisposable?) in
      if state.disposed { return (true, nil) }
      defer { state.inner = newDisposable }
      return (false, state.inner)
    }
    if alreadyDisposed { newDisposable?.dispose() }
    return previous
  }

  /// Disposes the current inner disposable; only the first call has an effect.
  public override func dispose() {
    let inner = state.withCriticalRegion { state -> RACDisposable? in
      guard !state.disposed else { return nil }
      state.disposed = true
      defer { state.inner = nil }
      return state.inner
    }
    inner?.dispose()
  }
}
