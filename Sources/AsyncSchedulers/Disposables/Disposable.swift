/// Something that can be cancelled: a scheduled job, a timer, a subscription, a task.
///
/// `dispose()` is thread-safe and idempotent: it may be called from any thread, any number of times,
/// and the underlying work is torn down at most once. `isDisposed` becomes `true` once `dispose()` has
/// been called (for a ``ScheduledAction``, also once a one-shot job has finished). Disposing never
/// interrupts code that is already running; it only prevents what has not started.
///
/// A `Task` is a `Disposable` too: disposing it cancels it (see `Task+Disposable.swift`).
public protocol Disposable: Sendable {
  /// Tears the work down; only the first call has an effect. May be called from any thread and
  /// never blocks on the work it cancels.
  func dispose()

  /// Whether `dispose()` has been called. Reading it never blocks.
  var isDisposed: Bool { get }
}

extension Disposable {
  /// `false`, for a disposable that does not track whether it was disposed (RxSwift's `Disposable` has
  /// only `dispose()`, so code written for it compiles unchanged): ``CompositeDisposable`` and
  /// ``DisposeBag`` keep such a disposable until they dispose it. Every disposable of this library
  /// implements it.
  public var isDisposed: Bool { false }
}
