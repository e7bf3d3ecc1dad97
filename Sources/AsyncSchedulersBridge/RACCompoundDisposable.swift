import AsyncSchedulers
import Synchronization

/// ReactiveObjC's `RACCompoundDisposable`: disposes all of its children, once, when disposed.
///
/// RAC semantics: adding `nil` or an already-disposed child does nothing; adding to a disposed compound
/// disposes the child at once; ``remove(_:)`` removes a child **without** disposing it. Children are
/// disposed outside the lock, in the order they were added. Built on the core ``/AsyncSchedulers/CompositeDisposable``.
public final class RACCompoundDisposable: RACDisposable, @unchecked Sendable {
  // Why @unchecked Sendable: `composite` is thread-safe; `handles` is a Mutex.
  private let composite = CompositeDisposable()
  private let handles = Mutex<[ObjectIdentifier: [CompositeDisposable.Handle]]>([:])

  /// Creates an empty compound disposable (`+compoundDisposable`).
  public override init() { super.init() }

  /// Creates a compound disposable holding `disposables` (`+compoundDisposableWithDisposables:`).
  public init(disposables: [RACDisposable]?) {
    super.init()
    for disposable in disposables ?? [] { add(disposable) }
  }

  /// Whether the compound has been disposed.
  public override var isDisposed: Bool { composite.isDisposed }

  /// Adds `disposable` (`-addDisposable:`); disposes it at once if the compound is already disposed.
  public func add(_ disposable: RACDisposable?) {
    guard let disposable, !disposable.isDisposed else { return }
    let handle = composite.add(disposable)
    guard !handle.isDisposed else { return }
    handles.withCriticalRegion { $0[ObjectIdentifier(disposable), default: []].append(handle) }
  }

  /// Removes `disposable` without disposing it (`-removeDisposable:`).
  public func remove(_ disposable: RACDisposable?) {
    guard let disposable else { return }
    let removed = handles.withCriticalRegion { $0.removeValue(forKey: ObjectIdentifier(disposable)) }
    for handle in removed ?? [] { handle.dispose() }
  }

  /// Disposes every child once.
  public override func dispose() {
    composite.dispose()
    handles.withCriticalRegion { $0.removeAll() }
  }
}
