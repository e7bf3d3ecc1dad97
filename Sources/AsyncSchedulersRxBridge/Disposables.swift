import AsyncSchedulers

/// RxSwift's factory of disposables.
public enum Disposables {
  /// A disposable that does nothing (no allocation).
  public static func create() -> any Disposable { NopDisposable() }

  /// A disposable that runs `dispose` once, on the first `dispose()`, on the disposing thread.
  public static func create(with dispose: @escaping () -> Void) -> any Cancelable {
    AnyDisposable(rxClosure(dispose))
  }

  /// A disposable that disposes both, in order.
  public static func create(_ disposable1: any Disposable, _ disposable2: any Disposable) -> any Cancelable {
    CompositeDisposable([disposable1, disposable2])
  }

  /// A disposable that disposes all three, in order.
  public static func create(
    _ disposable1: any Disposable, _ disposable2: any Disposable, _ disposable3: any Disposable
  ) -> any Cancelable {
    CompositeDisposable([disposable1, disposable2, disposable3])
  }

  /// A disposable that disposes all of them, in order.
  public static func create(
    _ disposable1: any Disposable, _ disposable2: any Disposable, _ disposable3: any Disposable,
    _ disposables: any Disposable...
  ) -> any Cancelable {
    CompositeDisposable([disposable1, disposable2, disposable3] + disposables)
  }

  /// A disposable that disposes all of them, in order.
  public static func create(_ disposables: [any Disposable]) -> any Cancelable { CompositeDisposable(disposables) }
}

/// The disposable that does nothing.
struct NopDisposable: Disposable {
  func dispose() {}
  var isDisposed: Bool { false }
}

/// RxSwift's disposable that knows whether it was disposed. In this library every `Disposable` has
/// `isDisposed`, so `Cancelable` adds nothing; it exists so Rx code naming it compiles.
public protocol Cancelable: Disposable {}

extension AnyDisposable: Cancelable {}
extension CompositeDisposable: Cancelable {}
extension SerialDisposable: Cancelable {}
extension ScheduledAction: Cancelable {}
