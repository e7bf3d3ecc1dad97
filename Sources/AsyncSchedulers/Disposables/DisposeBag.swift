/// A bag that disposes everything put in it when the bag is released (RxSwift's `DisposeBag`).
///
/// Inserting is thread-safe. Everything is disposed on the thread that releases the bag, in insertion
/// order. To dispose early, drop the bag (assign a new one).
public final class DisposeBag: Sendable {
  private let composite = CompositeDisposable()

  /// Creates an empty bag.
  public init() {}

  deinit { composite.dispose() }

  /// Adds `disposable`; it is disposed when the bag is released.
  public func insert(_ disposable: any Disposable) { composite.add(disposable) }
}

extension Disposable {
  /// Puts this disposable in `bag`, so it is disposed when the bag is released.
  public func disposed(by bag: DisposeBag) { bag.insert(self) }
}
