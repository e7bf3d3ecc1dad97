import AsyncSchedulers
import Synchronization

/// RxSwift's disposable that disposes its inner disposable on a scheduler: `dispose()` schedules the
/// disposal and returns at once; it runs (once) on ``scheduler``.
public final class ScheduledDisposable: Cancelable {
  /// The scheduler the disposal runs on.
  public let scheduler: any ImmediateSchedulerType
  private let inner: Mutex<(any Disposable)?>
  private let disposed = Atomic<Bool>(false)

  /// Disposes `disposable` on `scheduler` when disposed.
  public init(scheduler: any ImmediateSchedulerType, disposable: any Disposable) {
    self.scheduler = scheduler
    inner = Mutex(disposable)
  }

  /// Whether `dispose()` was called.
  public var isDisposed: Bool { disposed.load(ordering: .acquiring) }

  /// Schedules the disposal of the inner disposable on ``scheduler``; only the first call has an effect.
  public func dispose() {
    guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    _ = scheduler.schedule(self) { this in
      let inner = this.inner.withCriticalRegion { inner -> (any Disposable)? in
        defer { inner = nil }
        return inner
      }
      inner?.dispose()
      return Disposables.create()
    }
  }
}
