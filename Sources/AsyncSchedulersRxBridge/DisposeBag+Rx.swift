import AsyncSchedulers

extension DisposeBag {
  /// A bag already holding `disposables` (Rx's initializer).
  public convenience init(disposing disposables: any Disposable...) {
    self.init(disposing: disposables)
  }

  /// A bag already holding `disposables` (Rx's initializer).
  public convenience init(disposing disposables: [any Disposable]) {
    self.init()
    insert(disposables)
  }

  /// Adds several disposables (Rx's variadic `insert`).
  public func insert(_ disposable1: any Disposable, _ disposable2: any Disposable, _ disposables: any Disposable...) {
    insert([disposable1, disposable2] + disposables)
  }

  /// Adds every disposable of `disposables`.
  public func insert(_ disposables: [any Disposable]) {
    for disposable in disposables { insert(disposable) }
  }

  /// A bag holding the disposables `builder` lists, one per line (Rx's `DisposeBag { … }`).
  public convenience init(@DisposableBuilder builder: () -> [any Disposable]) {
    self.init(disposing: builder())
  }

  /// Adds the disposables `builder` lists, one per line (Rx's `bag.insert { … }`).
  public func insert(@DisposableBuilder builder: () -> [any Disposable]) {
    insert(builder())
  }

  /// Gathers disposables listed one per line in a closure (RxSwift's `DisposeBag.DisposableBuilder`).
  @resultBuilder
  public enum DisposableBuilder {
    /// The listed disposables, in order.
    public static func buildBlock(_ disposables: any Disposable...) -> [any Disposable] { disposables }
  }
}
