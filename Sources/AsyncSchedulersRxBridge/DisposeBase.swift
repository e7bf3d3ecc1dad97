/// RxSwift's base class of disposables (`DisposeBase`): a name migrating code may mention (as a
/// superclass or in a type check). It adds no behaviour (RxSwift's only counts resources in its debug
/// builds).
open class DisposeBase: @unchecked Sendable {
  // Why @unchecked Sendable: it has no stored state; subclasses conform to `Disposable`, which is
  // `Sendable`, and answer for their own state.

  /// Creates the base.
  public init() {}
}
