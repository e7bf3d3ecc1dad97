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
}
